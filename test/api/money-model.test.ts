import { strict as assert } from 'node:assert';
import { ciProfile, REGRESSIONS } from '../support/money-model/ci-profile';
import { replayCommand, runMoneyModel } from '../support/money-model/run';
import { startMoneyStack, type MoneyStack } from '../support/money-model/world';

/**
 * The money model as CI runs it (ci-profile.ts; docs/contributors/tests.md, "The money model"):
 * a new seed each run, printed on stderr as the command line that replays it, then every seed
 * that ever found a defect. A failure names its seed, its replay and the shrunk sequence.
 */
describe('money model: bank books, store and webhook receiver agree (fast-check)', function () {
  this.timeout(900_000);
  let stack: MoneyStack;
  const log = (line: string) => console.error(`      ${line}`);

  before(async () => {
    stack = await startMoneyStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('holds the money invariants over a new seed’s sequences of payments, mandates, refunds, chargebacks, settlements, faults and pairs of commands at once, reaching mandate debits', async () => {
    const profile = ciProfile();
    console.error(`      [money] seed ${profile.seed}; replay: ${replayCommand(profile)}`);
    const started = Date.now();
    const r = await runMoneyModel(stack, { ...profile, log });
    console.error(
      `      [money] seed ${profile.seed}: ${r.sequences} sequences, ${r.debitsAtBank} debit attempts at the bank in ${r.sequencesWithDebits} of them, ${r.restarts} restart(s), ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    assert.ok(r.sequences >= profile.runs, `${r.sequences} of ${profile.runs} sequences ran`);
    assert.ok(
      r.debitsAtBank > 0,
      `seed ${profile.seed}: no sequence reached a mandate debit at the bank (invariant 3 unchecked)`,
    );
  });

  for (const x of REGRESSIONS)
    it(`replays seed ${x.seed}${x.path !== undefined ? ` path ${x.path}` : ''}, which found ${x.found}`, async () => {
      await runMoneyModel(stack, { ...x, shrink: true, shrinkSeconds: 60, log });
    });
});
