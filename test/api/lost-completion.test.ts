import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { TransactionRepository } from '../../src/store/transaction-repository';
import { WebhookRepository } from '../../src/store/webhook-repository';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { deliveryResult } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { createData, transactU } from '../support/mandates';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver } from '../support/receiver';

/**
 * The store write of an outcome commits, then the activity's completion is lost (the worker died or
 * timed out before reporting it). Temporal retries the activity, which finds the outcome stored
 * already; the merchant must still get its real-time webhook, and exactly once.
 */
describe('An outcome whose activity completion is lost still reaches the merchant, once', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  /** Merchants whose next outcome write "loses" its completion: it commits, then the activity fails. */
  const losing = new Set<string>();
  const lost: string[] = [];

  before(async () => {
    gw = await startTestGateway(
      { SANDBOX_MANDATE_PAYER_SECONDS: '0.2' },
      {
        activityDeps: (deps) => {
          const real = deps.transactions;
          const transactions: TransactionRepository = Object.create(real);
          transactions.recordOutcome = async (order, ...rest) => {
            const result = await real.recordOutcome(order, ...rest);
            if (losing.delete(order.merchantIdentifier)) {
              lost.push(order.orderId);
              throw new Error('the worker died after the write, before reporting the completion');
            }
            return result;
          };
          return { ...deps, transactions };
        },
      },
    );
  });
  after(() => gw?.stop());

  async function merchantWithReceiver(name: string) {
    const merchant = await gw.newMerchant(name);
    const receiver = await startReceiver();
    await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
    losing.add(merchant.merchantIdentifier);
    return { merchant, receiver };
  }

  /** The real-time delivery of the order ends delivered, its receiver called once with its id. */
  async function deliveredOnce(m: MerchantCredentials, orderId: string, calls: { headers: Record<string, unknown> }[]) {
    const deliveryId = `rt:${m.merchantIdentifier}:${orderId}`;
    // Not sent at all is the defect this guards against: wait for the delivery to settle, inside the
    // workflow that made it durable (the first attempt) or in a delivery workflow.
    const repo = new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey);
    for (let i = 0; i < 100 && (await repo.find(deliveryId))?.state !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(await deliveryResult(gw, deliveryId), { state: 'delivered', attempts: 1 });
    const stored = await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId);
    assert.equal(stored?.state, 'delivered');
    assert.equal(stored?.attempts.length, 1);
    // A moment for any second delivery to show itself.
    await new Promise((r) => setTimeout(r, 1_500));
    assert.deepEqual(
      calls.map((c) => c.headers['x-webhook-id']),
      [deliveryId],
    );
  }

  it('a sandbox payment: recorded once, its webhook delivered exactly once', async () => {
    const { merchant, receiver } = await merchantWithReceiver('Lost completion');
    try {
      const orderId = newOrderId('lost');
      const paid = await sandboxPay(gw, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId,
        payerVpa: 'success@sandbox',
      });
      assert.equal(paid.status, 202, paid.text);
      assert.equal((await paymentFinished(gw, merchant.merchantIdentifier, orderId)).status, 'Success');
      assert.deepEqual(lost, [orderId], 'the first completion of the outcome was lost');
      await deliveredOnce(merchant, orderId, receiver.calls);
      const txns = JSON.parse(new URLSearchParams(receiver.calls[0]!.body).get('txnData')!).txns;
      assert.deepEqual(
        txns.map((t: { orderId: string; responseCode: string }) => [t.orderId, t.responseCode]),
        [[orderId, '100']],
      );
    } finally {
      lost.length = 0;
      await receiver.close();
    }
  });

  it("a mandate's first debit: recorded once, its webhook delivered exactly once", async () => {
    const { merchant, receiver } = await merchantWithReceiver('Lost debit completion');
    try {
      const orderId = `mandate-${randomBytes(4).toString('hex')}`;
      const data = createData(merchant, { orderId, today: new Date(), firstDebit: true, firstDebitAmount: 12_345 });
      const res = await transactU(gw.baseUrl, merchant, data);
      assert.equal(res.json.responseCode, '1101', res.text);
      // The approval, then the first debit: its outcome is written (and its completion lost).
      for (let i = 0; i < 100 && lost.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(lost.length, 1, 'the first debit lost its first completion');
      const debitOrderId = lost[0]!;
      const debit = await gw.rt.transactions.findByOrder({
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: debitOrderId,
      });
      assert.deepEqual([debit?.status, debit?.responseCode], ['Success', '1111']);
      await deliveredOnce(merchant, debitOrderId, receiver.calls);
    } finally {
      lost.length = 0;
      await receiver.close();
    }
  });
});
