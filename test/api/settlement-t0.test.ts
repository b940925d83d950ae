import { strict as assert } from 'node:assert';
import { SettlementAccountRepository } from '../../src/store/settlement-account-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { settlementWorkflowId } from '../../src/temporal/settlement-contract';
import { RUN_MASTER_KEY, startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';

/** A working day (a Wednesday) and instants of it in IST. */
const DAY = '2026-11-25';
const ist = (hhmm: string) => new Date(`${DAY}T${hhmm}:00+05:30`);

/**
 * T+0 (`SETTLEMENT_DAYS=0`) through the real stack: a day's captures up to the cut-off
 * (`SETTLEMENT_HOUR_IST`) settle on that same date once the cut-off has passed, and one captured
 * after the cut-off is the next working day's. The gateway's clock is the injectable one.
 */
describe('Settlements at T+0', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let clock = ist('07:00');
  let base: string;
  let auth: Record<string, string>;

  before(async () => {
    gw = await startTestGateway({ SETTLEMENT_DAYS: '0', SETTLEMENT_HOUR_IST: '9' }, { now: () => clock, bank: 'sandbox' });
    base = `${gw.baseUrl}/ops/v1`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });
  after(async () => gw?.stop());

  async function pay(merchantIdentifier: string, amount: number) {
    const orderId = newOrderId('t0');
    const paid = await sandboxPay(gw, { merchantIdentifier, orderId, amount, payerVpa: 'success@sandbox' });
    assert.ok(paid.status === 200 || paid.status === 202, paid.text);
    assert.equal((await paymentFinished(gw, merchantIdentifier, orderId)).status, 'Success');
    return orderId;
  }

  it("settles the day's captures on the same date once its cut-off has passed; a capture after the cut-off waits for the next", async () => {
    const m = await gw.newMerchant('Same Day Stores');
    const merchant = m.merchantIdentifier;
    await new SettlementAccountRepository(gw.rt.store.db, RUN_MASTER_KEY).set(
      merchant,
      { ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Same Day Stores' },
      { at: clock, by: 'test', coolingUntil: null },
    );
    clock = ist('07:00');
    const before = await pay(merchant, 50_000);
    clock = ist('08:59');
    const justBefore = await pay(merchant, 20_000);
    const run = () => request(`${base}/merchants/${merchant}/settlements/run`, { body: { date: DAY }, headers: auth });

    // Before the cut-off the date's window is still open: refused, nothing starts.
    const early = await run();
    assert.equal(early.status, 409, early.text);
    assert.equal(early.json.message.code, '2064');

    clock = ist('09:30');
    const after = await pay(merchant, 30_000);
    const started = await run();
    assert.equal(started.status, 200, started.text);
    assert.deepEqual(
      [started.json.data.outcome, started.json.data.settlementId, started.json.data.settlementDate],
      ['started', settlementWorkflowId(merchant, DAY), DAY],
    );
    await gw.rt.temporal.workflow.getHandle(settlementWorkflowId(merchant, DAY)).result();
    const s = await new SettlementRepository(gw.rt.store.db).find(settlementWorkflowId(merchant, DAY));
    assert.equal(s?.state, 'paid');
    assert.equal(s?.grossPaise, 70_000, 'the captures before the cut-off, on the same date');
    const lines = await gw.rt.store.db
      .collection<{ orderId: string; settlementDate: string }>('settlement_lines')
      .find({ settlementId: settlementWorkflowId(merchant, DAY) })
      .toArray();
    assert.deepEqual(lines.map((l) => l.orderId).sort(), [before, justBefore].sort());
    assert.ok(lines.every((l) => l.settlementDate === DAY));
    const order = (orderId: string) =>
      gw.rt.store.db.collection<{ saleSettlementId?: string }>('transactions').findOne({ merchantIdentifier: merchant, orderId });
    assert.equal((await order(before))?.saleSettlementId, settlementWorkflowId(merchant, DAY));
    const later = await order(after);
    assert.ok(later, 'the order after the cut-off is stored');
    assert.equal(later.saleSettlementId, undefined, 'captured after the cut-off: the next working day settles it');
  });
});
