import { strict as assert } from 'node:assert';
import { storedTransactions } from '../support/money-model/invariants';
import { liveness, needsAttention } from '../support/money-model/liveness';
import { assertSettlements, endSettlements, finishSettlements, settle } from '../support/money-model/settle';
import { payBurst } from '../support/money-model/settlement-actions';
import { land } from '../support/money-model/settlement-commands';
import { newWorld, skip, startMoneyStack, type MoneyStack, type World } from '../support/money-model/world';

const RATE = { percentBps: 100, fixedPaise: 0 };
const PLAN = { upi: RATE, card: { debit: RATE, credit: RATE }, netbanking: RATE, wallet: RATE, refundReturnsFee: false };

/**
 * The money model's commands in one fixed order: a settlement whose payout the bank leaves PENDING
 * (the `silence` fault), then the next settlement with a chargeback of the first one's sale landing
 * during its claim. The model's quiet check must excuse the first settlement while its payout is
 * within its day (it neither ended nor is owed a listing yet), and liveness must find it listed
 * by needs-attention once that day is over.
 */
describe('money model: a payout left PENDING, then a settlement with a chargeback during its claim', function () {
  this.timeout(300_000);
  let stack: MoneyStack;
  let w: World;

  before(async () => {
    stack = await startMoneyStack();
    w = await newWorld(stack, { autoRefund: false, seed: 1, plan: PLAN });
  });
  after(async () => {
    if (w) await endSettlements(w);
    await stack?.stop();
  });

  /** Two UPI payments, waited for until both are Success. */
  async function twoPaid(amounts: [number, number]) {
    await payBurst(
      w,
      amounts.map((amountPaise) => ({ kind: 'upi' as const, payer: 'success@sandbox', amountPaise })),
    );
    const deadline = Date.now() + 20_000;
    for (;;) {
      const paid = [...(await storedTransactions(w)).values()].filter((t) => t.successAt).length;
      if (paid === w.orders.length) return;
      if (Date.now() > deadline) throw new Error(`${paid} of ${w.orders.length} payments succeeded`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('the pending settlement is excused within its day and listed after it; the next one ends; nothing is unsettled or unlisted', async () => {
    await twoPaid([10_000, 20_000]);
    const first = await settle(w, { advance: true, fault: 'silence', inFlight: false, twice: false });
    assert.match(first, /RUNNING payout_requested \(PENDING at the bank\)/);
    const pending = w.settlements[0]!;
    assert.doesNotMatch(await needsAttention(w), new RegExp(`"${pending}"`), 'a payout pending for hours is not late yet');
    await assertSettlements(w, true);

    await twoPaid([30_000, 40_000]);
    const second = await settle(w, {
      advance: true,
      fault: 'none',
      inFlight: false,
      twice: false,
      during: { name: 'chargeback(#0, 100%)', act: (x) => land(x, { i: 0, kind: 'chargeback', share: 100, split: [50] }) },
    });
    assert.match(second, /chargeback\(#0, 100%\) during its claim: .* → 6 → COMPLETED paid /);
    await finishSettlements(w);
    await assertSettlements(w, true);

    // Past the payout's day (SETTLEMENT_ATTENTION_PAYOUT_MINUTES) the pending settlement is listed.
    await skip(w, 86_400);
    const attention = await needsAttention(w);
    assert.match(attention, new RegExp(`"_id":"${pending}"[^}]*"reason":"payout_pending_too_long"`));
    assert.deepEqual(await liveness(w), []);
    const bySettlement = new Map<string, number>();
    for (const t of (await storedTransactions(w)).values())
      bySettlement.set(t.saleSettlementId!, (bySettlement.get(t.saleSettlementId!) ?? 0) + 1);
    assert.deepEqual(
      [...bySettlement.entries()].sort(),
      [
        [pending, 2],
        [w.settlements[1]!, 2],
      ].sort(),
    );
  });
});
