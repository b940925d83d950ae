import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { activityDeps } from '../../src/main/runtime';
import { WorkflowNotFoundError } from '@temporalio/client';
import { WebhookRepository } from '../../src/store/webhook-repository';
import { startPayment, startPaymentDeps } from '../../src/usecases/start-payment';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { createGatewayWorker } from '../../src/main/gateway-worker';
import { deliveryOutcome, deliveryResult } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver } from '../support/receiver';
import { workflowBundle } from '../support/servers';
import { startWorkerProcess } from '../support/worker-process';

describe('Webhook delivery survives a worker killed during an attempt', function () {
  this.timeout(180_000);
  let gw: TestGateway;
  let child: ChildProcess | undefined;
  before(async () => {
    gw = await startTestGateway();
  });
  after(async () => {
    child?.kill('SIGKILL');
    await gw?.stop();
  });

  /** Kills the worker process mid-attempt, then runs a second worker (in this process) on its queue until `done`. */
  async function killWorkerAndResume<T>(taskQueue: string, done: () => Promise<T>): Promise<T> {
    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    const second = await createGatewayWorker({
      address: gw.rt.config.temporal.address!,
      namespace: gw.rt.config.temporal.namespace,
      masterKey: gw.rt.config.secrets.masterKey,
      taskQueue,
      activityDeps: activityDeps(gw.rt),
      workflowBundle: await workflowBundle(),
    });
    try {
      return await second.worker.runUntil(done());
    } finally {
      await second.connection.close();
    }
  }

  it('a second worker repeats the attempt with the same bytes and delivers', async () => {
    // The receiver holds the first call open (the worker dies meanwhile) and acknowledges the next.
    const receiver = await startReceiver((n) => (n === 1 ? 'hang' : { status: 200, body: 'SUCCESS' }));
    const taskQueue = `crash-${randomBytes(4).toString('hex')}`;
    try {
      const m = await gw.newMerchant('Crash hooks');
      const orderId = newOrderId('crash');
      await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      await paymentFinished(gw, m.merchantIdentifier, orderId);
      // Its own real-time delivery ends unsent (no URL yet) before the receiver is configured.
      assert.equal((await deliveryResult(gw, `rt:${m.merchantIdentifier}:${orderId}`)).state, 'not sent');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });

      child = await startWorkerProcess(gw, taskQueue);
      const deliveryId = `crash:${m.merchantIdentifier}:${orderId}`;
      const handle = await gw.rt.temporal.workflow.start('webhookDeliveryWorkflow', {
        workflowId: `webhook:${deliveryId}`,
        taskQueue,
        args: [{ deliveryId, merchantIdentifier: m.merchantIdentifier, orderId }],
      });
      await receiver.received(1);
      const result = await killWorkerAndResume(taskQueue, () => handle.result());

      assert.deepEqual(result, { state: 'delivered', attempts: 1 });
      assert.equal(receiver.calls.length, 2, 'the attempt in flight when the worker died, then its repetition');
      assert.equal(receiver.calls[0]!.body, receiver.calls[1]!.body, 'the same stored bytes');
      assert.deepEqual(
        receiver.calls.map((c) => c.headers['x-webhook-id']),
        [deliveryId, deliveryId],
      );
      assert.equal(JSON.parse(new URLSearchParams(receiver.calls[1]!.body).get('txnData')!).txns[0].orderId, orderId);
      const stored = await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId);
      assert.equal(stored?.state, 'delivered');
    } finally {
      await receiver.close();
    }
  });
  /**
   * A sandbox payment whose workflow runs on a worker process killed while the receiver holds the
   * inline attempt open (the first, or the call numbered `killAtCall`); a second worker (in this process) finishes the payment. Returns the
   * delivery id once the payment workflow has ended.
   */
  async function payThroughKilledWorker(receiver: Awaited<ReturnType<typeof startReceiver>>, name: string, killAtCall = 1) {
    const taskQueue = `crash-${randomBytes(4).toString('hex')}`;
    const m = await gw.newMerchant(name);
    await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
    child = await startWorkerProcess(gw, taskQueue);
    const orderId = newOrderId('crashin');
    // The payment workflow runs on the worker about to die (the gateway's own polls another queue).
    const deps = { ...startPaymentDeps({ ...gw.rt, now: () => new Date() }), taskQueue };
    const started = await startPayment(deps, {
      merchantIdentifier: m.merchantIdentifier,
      orderId,
      amountPaise: 10_000 as never,
      productDescription: 'crash',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox' },
    });
    assert.equal(started.kind, 'started');
    await receiver.received(killAtCall);
    const payment = gw.rt.temporal.workflow.getHandle(paymentWorkflowId(m.merchantIdentifier, orderId));
    const result = await killWorkerAndResume(taskQueue, () => payment.result());
    assert.equal(result.status, 'Success');
    return { deliveryId: `rt:${m.merchantIdentifier}:${orderId}`, orderId };
  }

  /** Calls per X-Webhook-Id, as a merchant that processes an id once counts them. */
  const perWebhookId = (calls: { headers: Record<string, unknown> }[]) => {
    const processed = new Map<string, number>();
    for (const c of calls)
      processed.set(String(c.headers['x-webhook-id']), (processed.get(String(c.headers['x-webhook-id'])) ?? 0) + 1);
    return processed;
  };

  it('a worker killed during the first attempt inside the payment workflow: delivered exactly once per X-Webhook-Id, no delivery workflow', async () => {
    // The receiver holds the first call open (the worker dies meanwhile) and acknowledges the next;
    // like a real merchant it processes a webhook id once, however often the call arrives.
    const receiver = await startReceiver((n) => (n === 1 ? 'hang' : { status: 200, body: 'SUCCESS' }));
    try {
      const { deliveryId } = await payThroughKilledWorker(receiver, 'Crash inline');
      // Exactly once, from the receiver's side: one webhook id, acknowledged once, same bytes each call.
      assert.deepEqual([...perWebhookId(receiver.calls).keys()], [deliveryId]);
      assert.equal(receiver.calls.length, 2, 'the attempt in flight when the worker died, then its repetition');
      assert.equal(receiver.calls[0]!.body, receiver.calls[1]!.body, 'the same stored bytes');
      assert.deepEqual(
        receiver.calls.map((c) => c.headers['x-webhook-attempt']),
        ['1', '1'],
      );
      const stored = await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId);
      assert.equal(stored?.state, 'delivered');
      assert.equal(stored?.attempts.length, 1, 'the killed attempt never reached the store');
      await assert.rejects(gw.rt.temporal.workflow.getHandle(`webhook:${deliveryId}`).describe(), WorkflowNotFoundError);
      // Nothing more arrives afterwards.
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(receiver.calls.length, 2);
    } finally {
      await receiver.close();
    }
  });

  it('a worker killed during a first attempt that then fails: retried once inside the payment workflow, delivered at attempt 2, acknowledged once', async () => {
    // Held open (the worker dies), then the repeated first attempt fails, then attempt 2 is acknowledged.
    const receiver = await startReceiver((n) =>
      n === 1 ? 'hang' : n === 2 ? { status: 500, body: 'try later' } : { status: 200, body: 'SUCCESS' },
    );
    try {
      const { deliveryId, orderId } = await payThroughKilledWorker(receiver, 'Crash hand-over');
      // Attempt 2 is a quick retry of the payment workflow's first-attempt activity, after the schedule's 5 s.
      assert.deepEqual(await deliveryOutcome(gw, deliveryId), { state: 'delivered', attempts: 2, workflow: false });
      assert.deepEqual([...perWebhookId(receiver.calls).entries()], [[deliveryId, 3]]);
      assert.deepEqual(
        receiver.calls.map((c) => c.headers['x-webhook-attempt']),
        ['1', '1', '2'],
      );
      assert.ok(
        receiver.calls.every((c) => c.body === receiver.calls[0]!.body),
        'the same stored bytes on every call',
      );
      assert.equal(JSON.parse(new URLSearchParams(receiver.calls[2]!.body).get('txnData')!).txns[0].orderId, orderId);
      const stored = await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId);
      assert.equal(stored?.state, 'delivered');
      assert.deepEqual(
        stored?.attempts.map((a) => [a.attempt, a.httpStatus]),
        [
          [1, 500],
          [2, 200],
        ],
        'the killed call never reached the store; the failed and the acknowledged ones did',
      );
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(receiver.calls.length, 3, 'nothing after the acknowledgement');
    } finally {
      await receiver.close();
    }
  });
  it('a worker killed during a quick retry: attempt 2 sent again with the same bytes, acknowledged once, no delivery workflow', async () => {
    // Attempt 1 fails; its quick retry (5 s later, inside the payment workflow) is held open while
    // the worker dies; the next worker finds attempt 1 logged and sends attempt 2 again.
    const receiver = await startReceiver((n) =>
      n === 1 ? { status: 500, body: 'try later' } : n === 2 ? 'hang' : { status: 200, body: 'SUCCESS' },
    );
    try {
      const { deliveryId } = await payThroughKilledWorker(receiver, 'Crash quick retry', 2);
      assert.deepEqual(await deliveryOutcome(gw, deliveryId), { state: 'delivered', attempts: 2, workflow: false });
      assert.deepEqual(
        receiver.calls.map((c) => c.headers['x-webhook-attempt']),
        ['1', '2', '2'],
      );
      assert.deepEqual([...perWebhookId(receiver.calls).entries()], [[deliveryId, 3]]);
      assert.ok(
        receiver.calls.every((c) => c.body === receiver.calls[0]!.body),
        'the same stored bytes on every call',
      );
      const stored = await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId);
      assert.deepEqual(
        stored?.attempts.map((a) => [a.attempt, a.httpStatus]),
        [
          [1, 500],
          [2, 200],
        ],
        'the killed call never reached the store',
      );
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(receiver.calls.length, 3, 'nothing after the acknowledgement');
    } finally {
      await receiver.close();
    }
  });
});
