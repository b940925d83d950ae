import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { reportLateUpdate } from '../../src/usecases/report-late-update';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver, type ReceivedCall } from '../support/receiver';
import { csvFile, reconcile } from '../support/reconciliations';

const lateCalls = (calls: ReceivedCall[]) =>
  calls
    .filter((c) => c.url.endsWith('?realtime=false'))
    .map((c) => ({ form: new URLSearchParams(c.body), headers: c.headers }))
    .map(({ form, headers }) => ({
      txnData: form.get('txnData')!,
      checksum: form.get('checksum')!,
      id: headers['x-webhook-id'],
    }));

async function until(what: () => boolean, label: string): Promise<void> {
  for (let i = 0; i < 600 && !what(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(what(), label);
}

describe('Non-real-time webhooks: late updates gathered per merchant, at most 10 per call', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,200ms', WEBHOOK_BATCH_WINDOW: '1s' });
  });
  after(async () => gw?.stop());

  it('26 late updates reported together give calls of 10, 10 and 6, signed, short entries', async () => {
    const receiver = await startReceiver();
    try {
      const m = await gw.newMerchant('Late hooks');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const deps = { temporal: gw.rt.temporal, taskQueue: gw.rt.config.TEMPORAL_TASK_QUEUE, webhookBatchWindowMs: 1000 };
      const at = '2026-01-15T06:30:45.678Z';
      await Promise.all(
        Array.from({ length: 26 }, (_, i) =>
          reportLateUpdate(deps, m.merchantIdentifier, { kind: 'txn', orderId: `late-${i}`, amountPaise: 1000 + i, at }),
        ),
      );
      await until(() => lateCalls(receiver.calls).length >= 3, 'three calls');
      const calls = lateCalls(receiver.calls);
      assert.equal(calls.length, 3);
      const bodies = calls.map((c) => JSON.parse(c.txnData));
      assert.deepEqual(
        bodies.map((b) => b.txns.length).sort((a, b) => b - a),
        [10, 10, 6],
        'the three calls run concurrently; any order of arrival',
      );
      assert.deepEqual(
        bodies.flatMap((b) => b.txns.map((t: { orderid: string }) => t.orderid)).sort(),
        Array.from({ length: 26 }, (_, i) => `late-${i}`).sort(),
      );
      for (const c of calls) assert.equal(c.checksum, hmacSha256Hex(m.secretKey, c.txnData));
      assert.equal(new Set(calls.map((c) => c.id)).size, 3);
      const first = bodies[0].txns.find((t: { orderid: string }) => t.orderid === 'late-0');
      assert.deepEqual(first, { amount: 1000, orderid: 'late-0', txnDate: '2026-01-15 12:00:45.6' });
      assert.deepEqual(bodies[0].refunds, []);
      assert.equal(bodies[0].merchantIdentifier, m.merchantIdentifier);
    } finally {
      await receiver.close();
    }
  });

  it('a reconciliation success reaches the merchant in txns and its auto-refund in refunds', async () => {
    const receiver = await startReceiver();
    try {
      const m = await gw.newMerchant('Late recon');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, {
        webhookUrl: receiver.url,
        webhookFormat: 'form',
        autoRefund: true,
      });
      const orderId = newOrderId('late');
      const res = await sandboxPay(gw, {
        merchantIdentifier: m.merchantIdentifier,
        orderId,
        payerVpa: 'noanswer@sandbox',
        amount: 12_345,
      });
      await paymentFinished(gw, m.merchantIdentifier, orderId);
      await reconcile(gw, csvFile([`${res.json.data.txnId},LATE0001,SUCCESS,12345`]));
      await until(() => lateCalls(receiver.calls).length >= 1, 'a non-real-time call');
      const calls = lateCalls(receiver.calls);
      const body = JSON.parse(calls[0]!.txnData);
      assert.deepEqual(
        body.txns.map((t: { orderid: string; amount: number }) => [t.orderid, t.amount]),
        [[orderId, 12_345]],
      );
      assert.deepEqual(
        body.refunds.map((t: { orderid: string; amount: number }) => [t.orderid, t.amount]),
        [[orderId, 12_345]],
      );
      assert.match(body.txns[0].txnDate, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d$/);
    } finally {
      await receiver.close();
    }
  });
});
