import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { formatIstDateTimeMillis } from '../../src/domain/ist-time';
import { startWebhookDeliveryWorkflow } from '../../src/temporal/webhook-delivery-client';
import { reportLateUpdate } from '../../src/usecases/report-late-update';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
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
      const deps = { temporal: gw.rt.temporal, taskQueue: gw.rt.config.temporal.taskQueue, webhookBatchWindowMs: 1000 };
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
      // Full-width ids: 128 bits of SHA-256 over what each call carries.
      for (const c of calls) assert.match(String(c.id), new RegExp(`^nrt:${m.merchantIdentifier}:[0-9a-f]{32}$`));
      const first = bodies.flatMap((b) => b.txns).find((t: { orderid: string }) => t.orderid === 'late-0');
      assert.deepEqual(first, { amount: 1000, orderid: 'late-0', txnDate: '2026-01-15 12:00:45.6' });
      assert.deepEqual(bodies[0].refunds, []);
      assert.equal(bodies[0].merchantIdentifier, m.merchantIdentifier);
    } finally {
      await receiver.close();
    }
  });

  /** A merchant with a receiver and auto-refund on, and a payment the service marked Failure. */
  async function failedByService(receiverUrl: string, amount: number) {
    const m = await gw.newMerchant('Late recon');
    await gw.rt.merchants.updateSettings(m.merchantIdentifier, {
      webhookUrl: receiverUrl,
      webhookFormat: 'form',
      autoRefund: true,
    });
    const orderId = newOrderId('late');
    const res = await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox', amount });
    await paymentFinished(gw, m.merchantIdentifier, orderId);
    return { m, orderId, txnId: res.json.data.txnId as string };
  }

  /** Every txns and refunds entry the receiver got in non-real-time calls, once both kinds arrived. */
  async function lateEntries(calls: ReceivedCall[]) {
    const entries = () => {
      const bodies = lateCalls(calls).map((c) => JSON.parse(c.txnData));
      return { txns: bodies.flatMap((b) => b.txns), refunds: bodies.flatMap((b) => b.refunds) };
    };
    await until(() => entries().txns.length >= 1 && entries().refunds.length >= 1, 'the delayed success and its auto-refund');
    return entries();
  }

  it('a reconciliation success reaches the merchant in txns, and its auto-refund in refunds once it succeeded', async () => {
    const receiver = await startReceiver();
    try {
      const { m, orderId, txnId } = await failedByService(receiver.url, 12_345);
      await reconcile(gw, csvFile([`${txnId},LATE0001,SUCCESS,12345`]));
      const { txns, refunds } = await lateEntries(receiver.calls);
      assert.deepEqual(
        txns.map((t: { orderid: string; amount: number }) => [t.orderid, t.amount]),
        [[orderId, 12_345]],
      );
      assert.deepEqual(
        refunds.map((t: { orderid: string; amount: number }) => [t.orderid, t.amount]),
        [[orderId, 12_345]],
      );
      assert.match(txns[0].txnDate, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d$/);
      // Reported when it succeeded: the entry's date is the refund's settlement, not its start.
      const stored = await storedTransaction(gw, m.merchantIdentifier, orderId);
      const refund = stored!.refunds[0]!;
      assert.equal(refund.status, 'SUCCESS');
      assert.equal(refunds[0].txnDate, formatIstDateTimeMillis(refund.completedAt!).slice(0, -2));
      assert.equal(stored!.lateFollowUpsPending, undefined, 'follow-ups started, mark cleared');
    } finally {
      await receiver.close();
    }
  });

  it('a real-time call whose outcome became a delayed success before it was built is never sent in real-time form', async () => {
    const receiver = await startReceiver();
    try {
      // No webhook URL yet: the payment's real-time call is not built when the Failure is recorded,
      // as when its first attempt is held up (a store outage, a backlog) past the reconciliation.
      const m = await gw.newMerchant('Late realtime');
      const orderId = newOrderId('late');
      const res = await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' });
      await paymentFinished(gw, m.merchantIdentifier, orderId);
      const deliveryId = `rt:${m.merchantIdentifier}:${orderId}`;
      assert.equal(await gw.rt.store.db.collection('webhook_deliveries').findOne({ _id: deliveryId as never }), null);
      await reconcile(gw, csvFile([`${res.json.data.txnId},LATE0003,SUCCESS,10000`]));
      assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))!.delayedSuccess, true);

      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      await startWebhookDeliveryWorkflow(
        { temporal: gw.rt.temporal, taskQueue: gw.rt.config.temporal.taskQueue },
        { deliveryId, merchantIdentifier: m.merchantIdentifier, orderId },
      );
      const result = await gw.rt.temporal.workflow.getHandle(`webhook:${deliveryId}`).result();
      assert.match(result.state, /^not sent: the outcome became a delayed success/);
      assert.equal(receiver.calls.filter((c) => c.url.endsWith('?realtime=true')).length, 0, 'no real-time call');
    } finally {
      await receiver.close();
    }
  });

  it('a Pending payment a reconciliation file completes is one non-real-time call and never a real-time one', async () => {
    // A bank that stays silent for 10 minutes: the payment is still Pending when the file arrives.
    const slow = await startTestGateway({
      WEBHOOK_RETRY_SCHEDULE: '0,200ms',
      WEBHOOK_BATCH_WINDOW: '1s',
      BANK_TIMEOUT_SECONDS: '600',
    });
    const receiver = await startReceiver();
    try {
      const m = await slow.newMerchant('Late pending');
      await slow.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const orderId = newOrderId('late');
      const paid = await sandboxPay(slow, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' });
      assert.equal((await storedTransaction(slow, m.merchantIdentifier, orderId))?.status, 'Pending');
      const report = await reconcile(slow, csvFile([`${paid.json.data.txnId},LATE0003,SUCCESS,10000`]));
      assert.equal(report.applied, 1);
      assert.equal((await paymentFinished(slow, m.merchantIdentifier, orderId)).status, 'Success');
      const stored = await storedTransaction(slow, m.merchantIdentifier, orderId);
      assert.equal(stored?.delayedSuccess, true);

      await until(() => lateCalls(receiver.calls).length >= 1, 'the non-real-time call');
      await new Promise((r) => setTimeout(r, 2500)); // past the batch window and a real-time delivery's first attempt
      const late = lateCalls(receiver.calls).map((c) => JSON.parse(c.txnData));
      assert.deepEqual(
        late.map((b) => b.txns.map((t: { orderid: string; amount: number }) => [t.orderid, t.amount])),
        [[[orderId, 10_000]]],
        'one non-real-time call',
      );
      assert.equal(late[0].txns[0].txnDate, formatIstDateTimeMillis(stored!.successAt!).slice(0, -2));
      assert.deepEqual(
        receiver.calls.filter((c) => !c.url.endsWith('?realtime=false')).map((c) => c.url),
        [],
        'no real-time call',
      );
      const realtime = await slow.rt.store.db
        .collection('webhook_deliveries')
        .countDocuments({ _id: `rt:${m.merchantIdentifier}:${orderId}` as never });
      assert.equal(realtime, 0, 'no real-time delivery was created');
    } finally {
      await receiver.close();
      await slow.stop();
    }
  });

  it('a batch retried after it stopped between the change and its follow-ups still starts them, once', async () => {
    const receiver = await startReceiver();
    try {
      const { m, orderId, txnId } = await failedByService(receiver.url, 23_456);
      // The first try of the batch: the delayed success and its pending mark written, then a crash.
      const stored = await storedTransaction(gw, m.merchantIdentifier, orderId);
      const { applied } = await gw.rt.transactions.recordOutcome(
        stored!,
        {
          status: 'Success',
          responseCode: '100',
          responseDescription: 'Transaction Successful',
          bankRefNum: 'LATE0002',
          authCode: null,
          markedFailedByService: false,
          delayedSuccess: true,
          lateFollowUpsPending: true,
        },
        new Date(),
        ['Failure'],
      );
      assert.ok(applied);
      // The retry finds the line already applied, and starts what the crash left unstarted.
      const report = await reconcile(gw, csvFile([`${txnId},LATE0002,SUCCESS,23456`]));
      assert.deepEqual([report.applied, report.unchanged], [0, 1]);
      const { txns, refunds } = await lateEntries(receiver.calls);
      assert.deepEqual(
        [...txns, ...refunds].map((t: { orderid: string }) => t.orderid),
        [orderId, orderId],
      );
      const after = await storedTransaction(gw, m.merchantIdentifier, orderId);
      assert.deepEqual(
        after!.refunds.map((r) => [r.merchantRefId, r.status, r.amountPaise]),
        [[`auto-${txnId}`, 'SUCCESS', 23_456]],
      );
      assert.equal(after!.lateFollowUpsPending, undefined);
      // Once started, a third try of the same line changes nothing and reports nothing new.
      const callsBefore = lateCalls(receiver.calls).length;
      await reconcile(gw, csvFile([`${txnId},LATE0002,SUCCESS,23456`]));
      await new Promise((r) => setTimeout(r, 1500)); // past the 1 s batch window
      assert.equal(lateCalls(receiver.calls).length, callsBefore, 'nothing new reported');
      assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))!.refunds.length, 1);
    } finally {
      await receiver.close();
    }
  });
});
