import { strict as assert } from 'node:assert';
import { temporal } from '@temporalio/proto';
import { createActivities } from '../../activities';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { activityDeps } from '../../src/main/runtime';
import type { TransactionRepository } from '../../src/store/transaction-repository';
import { WebhookRepository } from '../../src/store/webhook-repository';
import { startWebhookDeliveryWorkflow } from '../../src/temporal/webhook-delivery-client';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { deliveryOutcome, deliveryResult } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver, type ReceiverAnswer } from '../support/receiver';

/** A local activity's marker in a workflow's history. */
const isLocalActivityMarker = (e: temporal.api.history.v1.IHistoryEvent) =>
  e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_MARKER_RECORDED &&
  e.markerRecordedEventAttributes?.markerName === 'core_local_activity';

describe('Real-time webhooks (real receivers on loopback)', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => {
    // Attempt 2 is a quick retry inside the payment workflow (300 ms of waits); attempts 3 and 4 are the delivery workflow's.
    gw = await startTestGateway({
      WEBHOOK_RETRY_SCHEDULE: '0,300ms,300ms,300ms',
      WEBHOOK_QUICK_RETRIES_WITHIN: '300ms',
      WEBHOOK_ATTEMPT_TIMEOUT_SECONDS: '1',
    });
  });
  after(async () => gw?.stop());

  async function merchantWith(url: string, webhookFormat: 'form' | 'json' = 'form') {
    const m = await gw.newMerchant('Hooks');
    await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: url, webhookFormat });
    return m;
  }
  async function pay(m: { merchantIdentifier: string }, instrument: Record<string, string>) {
    const orderId = newOrderId('wh');
    await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, ...instrument });
    await paymentFinished(gw, m.merchantIdentifier, orderId);
    const delivery = await deliveryOutcome(gw, `rt:${m.merchantIdentifier}:${orderId}`);
    return { orderId, delivery };
  }

  it('sends a success and a decline with every field, signed over the exact txnData', async () => {
    const receiver = await startReceiver();
    try {
      const m = await merchantWith(receiver.url);
      const paid = await pay(m, { cardNumber: '4012001037141112' });
      const declined = await pay(m, { payerVpa: 'failure@sandbox' });
      assert.deepEqual(
        [paid.delivery, declined.delivery],
        // Acknowledged at the first attempt, inside the payment workflow: no delivery workflow at all.
        [
          { state: 'delivered', attempts: 1, workflow: false },
          { state: 'delivered', attempts: 1, workflow: false },
        ],
      );
      assert.equal(receiver.calls.length, 2);
      for (const call of receiver.calls) {
        assert.equal(call.url, '/hooks/payments?realtime=true');
        assert.equal(call.headers['content-type'], 'application/x-www-form-urlencoded');
        assert.equal(call.headers['x-webhook-attempt'], '1');
        const form = new URLSearchParams(call.body);
        assert.equal(form.get('checksum'), hmacSha256Hex(m.secretKey, form.get('txnData')!));
      }
      // The first attempt was made by the outcome's own activity: two steps, no third. (Local activities
      // with the sandbox bank; through the bank simulator a card's outcome comes by message, and its
      // write is an activity.)
      const history = await gw.rt.temporal.workflow
        .getHandle(paymentWorkflowId(m.merchantIdentifier, paid.orderId))
        .fetchHistory();
      const steps = history.events!.filter(
        (e) => isLocalActivityMarker(e) || e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
      );
      assert.equal(steps.length, 2, "the bank request, then the outcome's write and its webhook");
      const [ok, no] = receiver.calls.map((c) => JSON.parse(new URLSearchParams(c.body).get('txnData')!));
      assert.equal(ok.merchantIdentifier, m.merchantIdentifier);
      assert.deepEqual(ok.refunds, []);
      const entry = ok.txns[0];
      assert.equal(entry.orderId, paid.orderId);
      assert.equal(entry.amount, '10000');
      assert.equal(entry.responseCode, '100');
      assert.equal(entry.paymentMode, 'Credit Card');
      assert.equal(entry.cardScheme, 'VISA');
      assert.equal(entry.product1Description, 'NA');
      assert.match(entry.pgTransTime, /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
      assert.match(entry.txnDate, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
      assert.match(entry.bankRefNum, /^\d{12}$/);
      assert.match(entry.authCode, /^\d{6}$/);
      assert.ok(Object.values(entry).every((v) => typeof v === 'string'));
      const declinedEntry = no.txns[0];
      assert.equal(declinedEntry.responseCode, '400');
      assert.equal('authCode' in declinedEntry || 'bankRefNum' in declinedEntry, false, 'absent on a declined entry');
      assert.equal(declinedEntry.cardScheme, 'NA');
    } finally {
      await receiver.close();
    }
  });

  it('sends a JSON body when the merchant chose it', async () => {
    const receiver = await startReceiver();
    try {
      const m = await merchantWith(receiver.url, 'json');
      await pay(m, { payerVpa: 'success@sandbox' });
      const body = JSON.parse(receiver.calls[0]!.body);
      assert.equal(receiver.calls[0]!.headers['content-type'], 'application/json');
      assert.equal(body.checksum, hmacSha256Hex(m.secretKey, body.txnData));
    } finally {
      await receiver.close();
    }
  });

  it('retries after a 500, a hang past the timeout and a 200 without SUCCESS, with identical bytes and the same X-Webhook-Id, logging each attempt', async () => {
    const answers: ReceiverAnswer[] = [
      { status: 500, body: 'oops' },
      'hang',
      { status: 200, body: 'OK' },
      { status: 200, body: ' SUCCESS\n' },
    ];
    const receiver = await startReceiver((n) => answers[n - 1]!);
    try {
      const m = await merchantWith(receiver.url);
      const { orderId, delivery } = await pay(m, { payerVpa: 'success@sandbox' });
      // Attempt 2 was the payment workflow's quick retry; its failure handed the delivery over to its
      // workflow, which went on with attempt 3.
      assert.deepEqual(delivery, { state: 'delivered', attempts: 4, workflow: true });
      assert.equal(new Set(receiver.calls.map((c) => c.body)).size, 1, 'the same bytes every time');
      assert.deepEqual(
        receiver.calls.map((c) => [c.headers['x-webhook-id'], c.headers['x-webhook-attempt']]),
        [1, 2, 3, 4].map((n) => [`rt:${m.merchantIdentifier}:${orderId}`, String(n)]),
      );
      const stored = await gw.rt.store.db
        .collection('webhook_deliveries')
        .findOne({ _id: `rt:${m.merchantIdentifier}:${orderId}` as never });
      assert.equal(stored?.state, 'delivered');
      assert.deepEqual(
        stored?.attempts.map((a: { httpStatus: number; response: string; error: string | null }) => [
          a.httpStatus,
          a.response,
          a.error,
        ]),
        [
          [500, 'oops', 'not acknowledged with SUCCESS'],
          [null, null, 'no answer within 1 s'],
          [200, 'OK', 'not acknowledged with SUCCESS'],
          [200, ' SUCCESS\n', null],
        ],
      );
    } finally {
      await receiver.close();
    }
  });

  it('retries a failed first attempt inside the payment workflow after the wait, with no delivery workflow (issue 35)', async () => {
    const receiver = await startReceiver((n) => (n === 1 ? { status: 500, body: 'oops' } : { status: 200, body: 'SUCCESS' }));
    try {
      const m = await merchantWith(receiver.url);
      const { orderId, delivery } = await pay(m, { payerVpa: 'success@sandbox' });
      assert.deepEqual(delivery, { state: 'delivered', attempts: 2, workflow: false });
      const [first, second] = receiver.calls;
      assert.ok(
        second!.receivedAt - first!.receivedAt >= 300,
        `attempt 2 came ${second!.receivedAt - first!.receivedAt} ms after 1`,
      );
      assert.equal(second!.body, first!.body, 'the same stored bytes');
      // The payment workflow's history holds no timer and no failed activity: the retry was the local activity's own.
      const history = await gw.rt.temporal.workflow.getHandle(paymentWorkflowId(m.merchantIdentifier, orderId)).fetchHistory();
      const { EVENT_TYPE_TIMER_STARTED, EVENT_TYPE_ACTIVITY_TASK_FAILED } = temporal.api.enums.v1.EventType;
      assert.equal(
        history.events!.filter((e) => e.eventType === EVENT_TYPE_TIMER_STARTED || e.eventType === EVENT_TYPE_ACTIVITY_TASK_FAILED)
          .length,
        0,
      );
    } finally {
      await receiver.close();
    }
  });

  it('hands a delivery still failing after its quick retries over to a delivery workflow that the server starts after the wait: attempt 3 in its first task, no timer (issue 35)', async () => {
    const receiver = await startReceiver((n) => (n <= 2 ? { status: 500, body: 'oops' } : { status: 200, body: 'SUCCESS' }));
    try {
      const m = await merchantWith(receiver.url);
      const { orderId, delivery } = await pay(m, { payerVpa: 'success@sandbox' });
      assert.deepEqual(delivery, { state: 'delivered', attempts: 3, workflow: true });
      const [, second, third] = receiver.calls;
      // The schedule's wait before attempt 3 (300 ms here) still holds: the server served it as the start delay.
      assert.ok(
        third!.receivedAt - second!.receivedAt >= 300,
        `attempt 3 came ${third!.receivedAt - second!.receivedAt} ms after 2`,
      );
      const history = await gw.rt.temporal.workflow.getHandle(`webhook:rt:${m.merchantIdentifier}:${orderId}`).fetchHistory();
      const { EVENT_TYPE_TIMER_STARTED, EVENT_TYPE_WORKFLOW_TASK_COMPLETED } = temporal.api.enums.v1.EventType;
      assert.equal(history.events!.filter((e) => e.eventType === EVENT_TYPE_TIMER_STARTED).length, 0, 'no timer');
      assert.equal(history.events!.filter((e) => e.eventType === EVENT_TYPE_WORKFLOW_TASK_COMPLETED).length, 1, 'one task');
    } finally {
      await receiver.close();
    }
  });

  it('fails the delivery after the last attempt when the receiver is down', async () => {
    const receiver = await startReceiver();
    await receiver.close();
    const m = await merchantWith(receiver.url);
    const { orderId, delivery } = await pay(m, { payerVpa: 'success@sandbox' });
    assert.deepEqual(delivery, { state: 'failed', attempts: 4, workflow: true });
    const stored = await gw.rt.store.db
      .collection('webhook_deliveries')
      .findOne({ _id: `rt:${m.merchantIdentifier}:${orderId}` as never });
    assert.equal(stored?.state, 'failed');
    assert.ok(
      stored?.attempts.every((a: { error: string | null; httpStatus: number | null }) => a.httpStatus === null && a.error),
    );
  });

  it('refuses a private address at call time without connecting', async () => {
    const m = await merchantWith('http://10.255.255.1:9/hooks');
    const { orderId, delivery } = await pay(m, { payerVpa: 'success@sandbox' });
    assert.equal(delivery.state, 'failed');
    const stored = await gw.rt.store.db
      .collection('webhook_deliveries')
      .findOne({ _id: `rt:${m.merchantIdentifier}:${orderId}` as never });
    assert.match(stored?.attempts[0].error, /webhook address refused: 10\.255\.255\.1 is a private address/);
  });

  it('refuses a host name that resolves to a refused address, when loopback is not allowed', async () => {
    const strict = await startTestGateway({ WEBHOOK_ALLOW_LOOPBACK: 'false', WEBHOOK_RETRY_SCHEDULE: '0' });
    const receiver = await startReceiver();
    try {
      const m = await strict.newMerchant('Strict');
      await strict.rt.merchants.updateSettings(m.merchantIdentifier, {
        webhookUrl: receiver.url.replace('127.0.0.1', 'localhost'),
      });
      const orderId = newOrderId('wh');
      await sandboxPay(strict, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      await paymentFinished(strict, m.merchantIdentifier, orderId);
      const delivery = await deliveryResult(strict, `rt:${m.merchantIdentifier}:${orderId}`);
      assert.equal(delivery.state, 'failed');
      assert.equal(receiver.calls.length, 0, 'nothing reached the loopback receiver');
      const stored = await strict.rt.store.db
        .collection('webhook_deliveries')
        .findOne({ _id: `rt:${m.merchantIdentifier}:${orderId}` as never });
      assert.match(stored?.attempts[0].error, /webhook address refused: localhost is a loopback address/);
    } finally {
      await receiver.close();
      await strict.stop();
    }
  });

  it('never sends again a delivery the store shows delivered, when its workflow runs again', async () => {
    const receiver = await startReceiver();
    try {
      const m = await merchantWith(receiver.url);
      const { orderId, delivery } = await pay(m, { payerVpa: 'success@sandbox' });
      assert.deepEqual(delivery, { state: 'delivered', attempts: 1, workflow: false });
      assert.equal(receiver.calls.length, 1);
      // The delivery's workflow runs although the call was acknowledged: as after a worker that lost
      // the task recording the acknowledgement, or a delivery started again.
      const deliveryId = `rt:${m.merchantIdentifier}:${orderId}`;
      await startWebhookDeliveryWorkflow(
        { temporal: gw.rt.temporal, taskQueue: gw.rt.config.temporal.taskQueue },
        { deliveryId, merchantIdentifier: m.merchantIdentifier, orderId, fromAttempt: 1 },
      );
      const again = await gw.rt.temporal.workflow.getHandle(`webhook:${deliveryId}`).result();
      assert.equal(again.state, 'delivered');
      assert.equal(receiver.calls.length, 1, 'nothing sent again');
      const stored = await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId);
      assert.equal(stored?.attempts.length, 1, 'no attempt logged again');
    } finally {
      await receiver.close();
    }
  });

  it("builds the call from the transaction the outcome's write returned: the order is not read again (issue 35)", async () => {
    const receiver = await startReceiver();
    try {
      const m = await merchantWith(receiver.url);
      const order = { merchantIdentifier: m.merchantIdentifier, orderId: newOrderId('wh') };
      const txnId = `T${order.orderId}`;
      await gw.rt.transactions.createPending({
        ...order,
        txnId,
        amountPaise: 12_345,
        productDescription: 'one read',
        buyerName: null,
        buyerEmail: null,
        ipAddress: null,
        instrument: { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' },
        createdAt: gw.rt.now(),
      });
      // The real repository, its reads of an order counted.
      const orderReads: string[] = [];
      const transactions = new Proxy(gw.rt.transactions, {
        get(target, name) {
          if (name === 'findByOrder')
            return (o: { orderId: string }) => (orderReads.push(o.orderId), target.findByOrder(o as never));
          const value = Reflect.get(target, name, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }) as TransactionRepository;
      const activities = createActivities({ ...activityDeps(gw.rt), transactions });
      const recorded = await activities.recordPaymentOutcome({
        ...order,
        txnId,
        answer: { approved: true, response: 'success', bankRefNum: 'RRN1', authCode: null },
        amountPaise: 12_345,
        deliverRealtime: true,
      });
      assert.deepEqual(recorded, { status: 'Success', applied: true, realtime: false });
      assert.deepEqual(orderReads, [], 'no read of the order after its write');
      assert.equal(receiver.calls.length, 1);
      const txnData = JSON.parse(new URLSearchParams(receiver.calls[0]!.body).get('txnData')!) as {
        txns: { orderId: string; amount: string; responseCode: string; bankRefNum: string }[];
      };
      assert.deepEqual(
        txnData.txns.map((t) => [t.orderId, t.amount, t.responseCode, t.bankRefNum]),
        [[order.orderId, '12345', '100', 'RRN1']],
      );
      assert.deepEqual(
        await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey)
          .find(`rt:${m.merchantIdentifier}:${order.orderId}`)
          .then((d) => [d?.state, d?.attempts.length]),
        ['delivered', 1],
      );
    } finally {
      await receiver.close();
    }
  });

  it('a merchant without a webhook URL: its payment makes no attempt (two local activities) and stores no call (issue 35)', async () => {
    const m = await gw.newMerchant('No hooks');
    const orderId = newOrderId('wh');
    await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    assert.equal((await paymentFinished(gw, m.merchantIdentifier, orderId)).status, 'Success');
    const history = await gw.rt.temporal.workflow.getHandle(paymentWorkflowId(m.merchantIdentifier, orderId)).fetchHistory();
    assert.equal(history.events!.filter(isLocalActivityMarker).length, 2, "the bank request and the outcome's write");
    assert.deepEqual(await deliveryOutcome(gw, `rt:${m.merchantIdentifier}:${orderId}`), {
      state: 'not sent',
      attempts: 0,
      workflow: false,
    });
  });
});
