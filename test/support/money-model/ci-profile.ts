import { randomInt } from 'node:crypto';

/**
 * What CI explores of the money model (test/money/explore.test.ts, `npm run test:money:explore`;
 * docs/contributors/tests.md, "The money model"): a seed drawn anew each run, 100 sequences of at
 * most 3 commands after the opening (tests.md gives the times measured), a failure shrunk for at
 * most two minutes. MONEY_SEED, MONEY_RUNS, MONEY_COMMANDS and MONEY_SHRINK_SECONDS change it.
 */
export function ciProfile(env: NodeJS.ProcessEnv = process.env) {
  return {
    seed: env.MONEY_SEED !== undefined ? Number(env.MONEY_SEED) : randomInt(2 ** 31 - 1),
    runs: Number(env.MONEY_RUNS ?? 100),
    maxCommands: Number(env.MONEY_COMMANDS ?? 3),
    shrink: true,
    shrinkSeconds: Number(env.MONEY_SHRINK_SECONDS ?? 120),
  };
}

/**
 * The draw `npm test` replays (test/api/money-model.test.ts) before the regression seeds: the CI
 * profile's shape with a fixed seed whose 15 sequences reach mandate debits at the bank (26 debit
 * attempts in 6 of them when chosen), so every run of the suite checks invariant 3 on real debits.
 */
export const FIXED_DRAW = { seed: 373138437, runs: 15, maxCommands: 3 } as const;

/**
 * Each seed that found a defect, replayed by CI too (one sequence each where its path is known).
 * The draws of a seed follow the command mix: since the mix changed (settlements, pairs, the debit
 * opening), a historical seed replays another sequence than the one that found its defect; the
 * defect itself stays covered by the example test named. A seed the exploration finds is added
 * here with its path, and `without` names the payers left out while its defect is open.
 */
export interface Regression {
  seed: number;
  runs: number;
  maxCommands: number;
  path?: string;
  without?: string[];
  found: string;
}

export const REGRESSIONS: Regression[] = [
  { seed: 1, runs: 1, maxCommands: 8, found: 'a late@sandbox approval left Failure 1023 (late-bank-answers.test.ts)' },
  { seed: 2, runs: 1, maxCommands: 8, found: 'a late@sandbox approval left Failure 1023 (late-bank-answers.test.ts)' },
  { seed: 5, runs: 1, maxCommands: 6, found: 'a late@sandbox approval left Failure 1023 (late-bank-answers.test.ts)' },
  {
    seed: 5150,
    runs: 400,
    maxCommands: 15,
    path: '294',
    found: 'a webhook signed with the key before a rotation (merchant-cache.test.ts, merchant-keys.test.ts)',
  },
  {
    seed: 3535,
    runs: 300,
    maxCommands: 12,
    path: '8',
    found: "a late approval left Failure 1023 by a local activity's write outliving its failed workflow task",
  },
  { seed: 4242, runs: 200, maxCommands: 10, path: '124', found: "the model's key-rotation window (invariant 4)" },
  { seed: 4242, runs: 200, maxCommands: 10, path: '116', found: 'a violation after worker-crash retries, not understood' },
  {
    seed: 1132588975,
    runs: 100,
    maxCommands: 3,
    path: '78',
    found:
      "the model's daily-run wait: a step's first attempt after four worker crashes counted as retrying for ever (invariant 9; it hangs on timing, seen under CI's load only)",
  },
  {
    seed: FIXED_DRAW.seed,
    runs: 1,
    maxCommands: 3,
    found:
      "a mandate debit's bank callback refused as unknown: its txnId (the clock and random hex) ended in R and digits and was read as a retry's; no seed replays a txnId, so bank-simulator.test.ts covers it",
  },
];
