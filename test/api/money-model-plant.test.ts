import { strict as assert } from 'node:assert';
import { breakClaim } from '../support/money-model/break-claim';
import { ciProfile } from '../support/money-model/ci-profile';
import { runMoneyModel } from '../support/money-model/run';
import { startMoneyStack, type MoneyStack } from '../support/money-model/world';

/**
 * The money model as CI runs it finds a planted defect: with the settlement claim broken
 * (break-claim.ts: a page of sales loses its last row), the CI profile fails, naming the liveness
 * invariant, the seed and the replay, after a shrinking cut short by its time bound. A seed whose
 * first sequences pay keeps it short; the failure stops the run.
 */
const SEED = 7;

describe('money model: the CI profile finds a planted broken claim', function () {
  this.timeout(300_000);
  let stack: MoneyStack;
  let restore: (() => void) | undefined;

  before(async () => {
    restore = breakClaim();
    stack = await startMoneyStack();
  });
  after(async () => {
    await stack?.stop();
    restore?.();
  });

  it('fails with (L): a paid sale no settlement claimed, with the seed, its replay and the shrunk sequence', async () => {
    const profile = { ...ciProfile({ MONEY_SEED: String(SEED) }), runs: 10, shrinkSeconds: 10 };
    await assert.rejects(runMoneyModel(stack, { ...profile, log: (line) => console.error(`      ${line}`) }), (e: Error) => {
      assert.match(e.message, /^\(L\) order \S+ \(\d+ paise, captured .*\) is not settled at .*: no settlement claimed it$/m);
      assert.match(
        e.message,
        new RegExp(
          `^money model failed with seed ${SEED}; replay: npm run test:money -- --seed ${SEED} --runs 10 --commands 3 --path \\S+`,
        ),
      );
      assert.match(e.message, /Counterexample: /);
      return true;
    });
  });
});
