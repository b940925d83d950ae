import { strict as assert } from 'node:assert';
import type { DueDebit } from '../production-stack/debits-due';
import { DebitsOfKills } from '../production-stack/debits-of-kills';

/** A kill probe's debit half (debits-of-kills.ts): pending, not passed, when a peak window let no debit fall due. */
describe("the kill probes' debit halves", () => {
  const skipped = new Error('skipped');
  const ctx = {
    skip(): never {
      throw skipped;
    },
  };

  it('is pending when no debit fell due, fails when the probe ended first, else gives the debits', () => {
    const kills = new DebitsOfKills();
    assert.throws(() => kills.of(ctx, 'worker'), /the kill probe \(worker\) ended before its debits fell due/);
    kills.set('worker', { due: [], killedAt: 1, held: [] });
    assert.throws(
      () => kills.of(ctx, 'worker'),
      (e) => e === skipped,
    );
    const due = [{ orderId: 'd1' } as DueDebit];
    kills.set('worker', { due, killedAt: 1, held: ['d1'] });
    assert.deepEqual(kills.of(ctx, 'worker'), { due, killedAt: 1, held: ['d1'] });
  });
});
