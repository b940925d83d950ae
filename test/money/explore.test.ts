import { strict as assert } from 'node:assert';
import { ciProfile } from '../support/money-model/ci-profile';
import { replayCommand, runMoneyModel } from '../support/money-model/run';
import { startMoneyStack, type MoneyStack } from '../support/money-model/world';

/**
 * The money model exploring (`npm run test:money:explore`, a step of CI after `npm test`; ci-profile.ts,
 * docs/contributors/tests.md "The money model"): a new seed each run, printed on stderr as the
 * command line that replays it, 100 sequences. A failure names its seed, its replay and the shrunk
 * sequence. `npm test` replays a fixed draw and the regression seeds (test/api/money-model.test.ts).
 */
describe('money model exploring: bank books, store and webhook receiver agree over a new seed (fast-check)', function () {
  this.timeout(1_800_000);
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
});
