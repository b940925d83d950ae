import { strict as assert } from 'node:assert';
import { FIXED_DRAW, REGRESSIONS } from '../support/money-model/ci-profile';
import { runMoneyModel } from '../support/money-model/run';
import { startMoneyStack, type MoneyStack } from '../support/money-model/world';

/**
 * The money model as `npm test` runs it (ci-profile.ts; docs/contributors/tests.md, "The money
 * model"): a fixed draw that reaches mandate debits, then every seed that ever found a defect. A
 * failure names its seed, its replay and the shrunk sequence. The exploring run, a new seed and
 * 100 sequences, is CI's own step (test/money/explore.test.ts).
 */
describe('money model: bank books, store and webhook receiver agree over a fixed draw and the regression seeds (fast-check)', function () {
  this.timeout(900_000);
  let stack: MoneyStack;
  const log = (line: string) => console.error(`      ${line}`);

  before(async () => {
    stack = await startMoneyStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it(`holds the money invariants over seed ${FIXED_DRAW.seed}'s ${FIXED_DRAW.runs} sequences, reaching mandate debits`, async () => {
    const r = await runMoneyModel(stack, { ...FIXED_DRAW, shrink: true, shrinkSeconds: 60, log });
    assert.equal(r.sequences, FIXED_DRAW.runs);
    assert.ok(
      r.debitsAtBank > 0,
      `seed ${FIXED_DRAW.seed}: no sequence reached a mandate debit at the bank (invariant 3 unchecked)`,
    );
  });

  for (const x of REGRESSIONS)
    it(`replays seed ${x.seed}${x.path !== undefined ? ` path ${x.path}` : ''}, which found ${x.found}`, async () => {
      await runMoneyModel(stack, { ...x, shrink: true, shrinkSeconds: 60, log });
    });
});
