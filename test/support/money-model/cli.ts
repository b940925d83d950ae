/**
 * `npm run test:money -- --runs N --seed S [--commands C] [--no-shrink] [--shrink-seconds S] [--without late@sandbox,...] [--path P] [--stories] [--size medium]`: the money model at any
 * size against its own stack (docs/contributors/tests.md, "The money model"). Exits 1 on a
 * violation, printing the seed, the shrunk sequence and the path that replays it.
 */
import { parseArgs } from 'node:util';
import type fc from 'fast-check';
import { stopTestServers } from '../servers';
import { runMoneyModel } from './run';
import { startMoneyStack } from './world';

async function main(): Promise<boolean> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '20' },
      seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
      commands: { type: 'string', default: '10' },
      'no-shrink': { type: 'boolean', default: false },
      // Bounds the shrinking of a failure (seconds after the first failure; unbounded without it).
      'shrink-seconds': { type: 'string' },
      // Payer VPAs to leave out, comma-separated: e.g. late@sandbox, to explore past its known defect.
      without: { type: 'string', default: '' },
      // Replays one sequence: the path a failure prints (with its seed).
      path: { type: 'string' },
      // Prints every sequence as it ran, passing or not.
      stories: { type: 'boolean', default: false },
      // fast-check's size of the sequences: xsmall, small (its default), medium, large, xlarge, max.
      size: { type: 'string' },
    },
  });
  const sizes = ['xsmall', 'small', 'medium', 'large', 'xlarge', 'max'];
  if (values.size !== undefined && !sizes.includes(values.size)) throw new Error(`--size must be one of ${sizes.join(', ')}`);
  const o = {
    runs: Number(values.runs),
    seed: Number(values.seed),
    maxCommands: Number(values.commands),
    shrink: !values['no-shrink'],
    ...(values['shrink-seconds'] !== undefined ? { shrinkSeconds: Number(values['shrink-seconds']) } : {}),
    without: values.without.split(',').filter(Boolean),
    path: values.path,
    stories: values.stories,
    ...(values.size ? { size: values.size as fc.SizeForArbitrary } : {}),
  };
  console.log(
    `[money] ${o.runs} sequences of at most ${o.maxCommands} commands, seed ${o.seed}${o.without.length ? `, without ${o.without.join(', ')}` : ''}`,
  );
  const stack = await startMoneyStack();
  try {
    const r = await runMoneyModel(stack, { ...o, log: (line) => console.log(`[money] ${line}`) });
    console.log(
      `[money] PASS: ${r.sequences} sequences, seed ${o.seed}; ${r.debitsAtBank} debit attempts at the bank in ${r.sequencesWithDebits} sequences${r.restarts ? `; ${r.restarts} ran again on fresh servers after the test server held its time still` : ''}`,
    );
    return true;
  } catch (e) {
    console.error(`[money] FAIL (seed ${o.seed}):\n${(e as Error).message}`);
    return false;
  } finally {
    await stack.stop();
    await stopTestServers();
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (e: Error) => {
    console.error(`[money] ${e.stack ?? e.message}`);
    process.exit(1);
  },
);
