import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { txnDataSchema } from '../../src/api/schemas/webhook-payload';
import type { Client } from '@temporalio/client';
import { formatIstDateTimeMillis } from '../../src/domain/ist-time';
import { DEFAULT_PENDING_SWEEP, pendingSweepInput } from '../../src/temporal/schedules';
import { applyChargeback } from '../../src/usecases/chargeback';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { startReceiver, type ReceivedCall } from '../support/receiver';
import { refund, refundFinished } from '../support/refunds';

/** The non-real-time calls the receiver got, verified with the merchant's key, as parsed txnData. */
function updateCalls(calls: ReceivedCall[], secretKey: string) {
  return calls
    .filter((c) => c.url.endsWith('?realtime=false'))
    .map((c) => {
      const form = new URLSearchParams(c.body);
      assert.equal(form.get('checksum'), hmacSha256Hex(secretKey, form.get('txnData')!), 'verifies');
      const txnData = JSON.parse(form.get('txnData')!);
      // The shape the API reference and the SDK's types publish, every field of it.
      assert.deepEqual(txnDataSchema.parse(txnData), txnData);
      return { id: String(c.headers['x-webhook-id']), txnData };
    });
}

async function until(what: () => boolean, label: string): Promise<void> {
  for (let i = 0; i < 300 && !what(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(what(), label);
}

/** The short entry's txnDate (`yyyy-MM-dd HH:mm:ss.S`, IST) of an instant. */
const shortDate = (at: Date) => formatIstDateTimeMillis(at).slice(0, -2);

describe('Refund outcomes and chargebacks reach the merchant as non-real-time webhooks', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,200ms' });
  });
  after(async () => gw?.stop());

  async function paidOrder(merchantIdentifier: string) {
    const orderId = newOrderId('upd');
    await sandboxPay(gw, { merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchantIdentifier, orderId);
    return orderId;
  }

  it('a refund the bank fails (txnStatus back to Success) and one it settles each reach the merchant, once', async () => {
    const receiver = await startReceiver();
    try {
      const m = await gw.newMerchant('Refund hooks');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const orderId = await paidOrder(m.merchantIdentifier);

      assert.equal((await refund(gw, m, { orderId, merchantRefId: 'f-1', updateReason: 'sandbox fail' })).status, 200);
      assert.equal((await refundFinished(gw, m.merchantIdentifier, orderId, 'f-1')).refundStatus, 'FAILED');
      await until(() => updateCalls(receiver.calls, m.secretKey).length >= 1, 'the failed refund is pushed');
      const stored = await storedTransaction(gw, m.merchantIdentifier, orderId);
      const failedAt = stored!.refunds.find((r) => r.merchantRefId === 'f-1')!.completedAt!;
      assert.deepEqual(updateCalls(receiver.calls, m.secretKey)[0]!.txnData, {
        merchantIdentifier: m.merchantIdentifier,
        txns: [],
        refunds: [
          {
            amount: 10000,
            orderid: orderId,
            txnDate: shortDate(failedAt),
            merchantRefId: 'f-1',
            refundStatus: 'FAILED',
            txnStatus: '0',
          },
        ],
      });

      assert.equal((await refund(gw, m, { orderId, merchantRefId: 'ok-1' })).status, 200);
      assert.equal((await refundFinished(gw, m.merchantIdentifier, orderId, 'ok-1')).refundStatus, 'SUCCESS');
      await until(() => updateCalls(receiver.calls, m.secretKey).length >= 2, 'the refund is pushed');
      const calls = updateCalls(receiver.calls, m.secretKey);
      assert.deepEqual(
        calls[1]!.txnData.refunds.map((r: Record<string, unknown>) => [r.merchantRefId, r.refundStatus, r.txnStatus, r.amount]),
        [['ok-1', 'SUCCESS', '3', 10000]],
      );
      for (const c of calls) assert.match(c.id, new RegExp(`^rf:${m.merchantIdentifier}:[0-9a-f]{32}$`));
      assert.notEqual(calls[0]!.id, calls[1]!.id);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(updateCalls(receiver.calls, m.secretKey).length, 2, 'each outcome once');
    } finally {
      await receiver.close();
    }
  });

  it('a chargeback raised and reverted each reach the merchant with the txnStatus they left', async () => {
    const receiver = await startReceiver();
    try {
      const m = await gw.newMerchant('Chargeback hooks');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const orderId = await paidOrder(m.merchantIdentifier);
      const chargeback = async (action: string, amount: number) => {
        const res = await request(`${gw.baseUrl}/ops/v1/chargebacks`, {
          body: { merchantIdentifier: m.merchantIdentifier, orderId, amount, action },
          headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
        });
        assert.equal(res.json.success, true, JSON.stringify(res.json));
        return res.json.data.txnStatus as string;
      };
      assert.equal(await chargeback('raise', 4000), '8');
      await until(() => updateCalls(receiver.calls, m.secretKey).length >= 1, 'the chargeback is pushed');
      assert.equal(await chargeback('revert', 4000), '7');
      await until(() => updateCalls(receiver.calls, m.secretKey).length >= 2, 'its revert is pushed');
      const calls = updateCalls(receiver.calls, m.secretKey);
      assert.deepEqual(
        calls.map((c) => {
          const [t] = c.txnData.txns;
          return [t.orderid, t.amount, t.chargebackAmount, t.txnStatus, c.txnData.refunds.length];
        }),
        [
          [orderId, 10000, 4000, '8', 0],
          [orderId, 10000, 4000, '7', 0],
        ],
      );
      for (const c of calls) assert.match(c.id, new RegExp(`^cb:${m.merchantIdentifier}:[0-9a-f]{32}$`));
      assert.notEqual(calls[0]!.id, calls[1]!.id);
    } finally {
      await receiver.close();
    }
  });

  describe('a crash between the chargeback write and its delivery start', () => {
    // The process dies right after the store write: the delivery is never started by this call.
    const crashed = { workflow: { start: () => Promise.reject(new Error('the API process died here')) } } as unknown as Client;
    async function crashedChargeback(merchantIdentifier: string, orderId: string, action: 'raise' | 'revert', at: Date) {
      const deps = { transactions: gw.rt.transactions, temporal: crashed, config: gw.rt.config, now: () => at };
      await assert.rejects(applyChargeback(deps, { merchantIdentifier, orderId }, action, 4000), /process died/);
    }
    const txnStatuses = (receiver: { calls: ReceivedCall[] }, secretKey: string) =>
      updateCalls(receiver.calls, secretKey).map((c) => c.txnData.txns[0].txnStatus as string);

    it('leaves the change noted, and the sweep tells the merchant', async () => {
      const receiver = await startReceiver();
      try {
        const m = await gw.newMerchant('Chargeback crash');
        await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
        const orderId = await paidOrder(m.merchantIdentifier);
        // Written five minutes ago, as the sweep's age wants it.
        await crashedChargeback(m.merchantIdentifier, orderId, 'raise', new Date(Date.now() - 5 * 60_000));
        assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))?.status, 'PartialChargeback');
        await new Promise((r) => setTimeout(r, 500));
        assert.deepEqual(txnStatuses(receiver, m.secretKey), [], 'nothing started the delivery');

        await gw.rt.temporal.workflow.execute('pendingPaymentsSweepWorkflow', {
          taskQueue: gw.rt.config.temporal.taskQueue,
          workflowId: `sweep-chargeback-test-${orderId}`,
          args: [pendingSweepInput(DEFAULT_PENDING_SWEEP.ageSeconds)],
        });
        await until(() => txnStatuses(receiver, m.secretKey).length >= 1, 'the sweep pushes the chargeback');
        assert.deepEqual(txnStatuses(receiver, m.secretKey), ['8']);
        assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))?.chargebackNotice, undefined, 'cleared');
      } finally {
        await receiver.close();
      }
    });

    it('a later chargeback call on the order tells the untold change first, so a newer one never hides it', async () => {
      const receiver = await startReceiver();
      try {
        const m = await gw.newMerchant('Chargeback crash then revert');
        await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
        const orderId = await paidOrder(m.merchantIdentifier);
        await crashedChargeback(m.merchantIdentifier, orderId, 'raise', new Date());
        const res = await request(`${gw.baseUrl}/ops/v1/chargebacks`, {
          body: { merchantIdentifier: m.merchantIdentifier, orderId, amount: 4000, action: 'revert' },
          headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
        });
        assert.equal(res.json.data.txnStatus, '7');
        await until(() => txnStatuses(receiver, m.secretKey).length >= 2, 'both changes are pushed');
        assert.deepEqual(txnStatuses(receiver, m.secretKey).sort(), ['7', '8']);
      } finally {
        await receiver.close();
      }
    });
  });
});
