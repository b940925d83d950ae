import { strict as assert } from 'node:assert';
import { WorkflowNotFoundError } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { loadConfig } from '../../src/config';
import { newTxnId } from '../../src/domain/identifiers';
import {
  DEFAULT_PENDING_SWEEP,
  ensureSchedules,
  PENDING_SWEEP_SCHEDULE_ID,
  pendingSweepInput,
  pendingSweepSettings,
} from '../../src/temporal/schedules';
import { KindKey } from '../../src/temporal/search-attributes';
import { mandateWorkflowId, paymentWorkflowId } from '../../src/temporal/workflow-ids';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { refundFinished } from '../support/refunds';

/** The crash window between the store write and the workflow start is healed by the sweep. */
describe('pending payments sweep', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  // As if the API wrote the order and died before starting its workflow.
  async function orphanedOrder(ageMs: number) {
    const orderId = newOrderId('orphan');
    const createdAt = new Date(Date.now() - ageMs);
    await gw.rt.transactions.createPending({
      txnId: newTxnId(createdAt),
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      amountPaise: 5_000,
      productDescription: 'Orphan',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox UPI Bank' },
      createdAt,
    });
    return orderId;
  }

  const workflowOf = (orderId: string) =>
    gw.rt.temporal.workflow.getHandle(paymentWorkflowId(merchant.merchantIdentifier, orderId));

  it('starts the missing workflow of a refund that was reserved but never started', async () => {
    const orderId = newOrderId('refund');
    await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      amount: 5_000,
      payerVpa: 'success@sandbox',
    });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const paid = (await storedTransaction(gw, merchant.merchantIdentifier, orderId))!;
    assert.equal(paid.status, 'Success');
    // As if the API reserved the refund and died before starting its workflow.
    const old = new Date(Date.now() - 5 * 60_000);
    await gw.rt.transactions.updateIfUnchanged(paid, paid.version, {
      set: { refundReservedPaise: 5_000, status: 'Refund', updatedAt: old },
      pushRefund: {
        merchantRefId: 'crash',
        amountPaise: 5_000,
        rrn: null,
        status: 'PENDING',
        createdAt: old,
        updateDesired: '14',
        updateReason: 'customer request',
      },
    });
    await gw.rt.temporal.workflow.execute('pendingPaymentsSweepWorkflow', {
      taskQueue: gw.rt.config.temporal.taskQueue,
      workflowId: `sweep-refund-test-${orderId}`,
      args: [pendingSweepInput(DEFAULT_PENDING_SWEEP.ageSeconds)],
    });
    const refund = await refundFinished(gw, merchant.merchantIdentifier, orderId, 'crash');
    assert.equal(refund.refundStatus, 'SUCCESS');
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.refunds[0]?.status, 'SUCCESS');
  });

  it('starts the missing workflow of a stale Pending order, and leaves fresh ones alone', async () => {
    const stale = await orphanedOrder(5 * 60_000);
    const fresh = await orphanedOrder(0);
    await assert.rejects(workflowOf(stale).describe(), WorkflowNotFoundError);

    const swept = await gw.rt.temporal.workflow.execute('pendingPaymentsSweepWorkflow', {
      taskQueue: gw.rt.config.temporal.taskQueue,
      workflowId: `sweep-test-${stale}`,
      args: [pendingSweepInput(DEFAULT_PENDING_SWEEP.ageSeconds)],
    });
    assert.ok(swept.checked >= 1);

    assert.equal((await paymentFinished(gw, merchant.merchantIdentifier, stale)).status, 'Success');
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, stale))?.status, 'Success');
    await assert.rejects(workflowOf(fresh).describe(), WorkflowNotFoundError);
  });

  it('starts the missing workflow of a mandate stored but never started; the payer then answers', async () => {
    const orderId = newOrderId('mandate');
    const createdAt = new Date(Date.now() - 5 * 60_000);
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId };
    // As if the API stored the mandate and died before starting its workflow.
    await gw.rt.mandates.insert({
      ...order,
      txnId: newTxnId(createdAt),
      mode: 'upiCollectMandate',
      state: 'CREATED',
      payerVpa: 'success@sandbox',
      maxAmountPaise: 100_000,
      productDescription: 'Orphan mandate',
      frequency: 'Adhoc',
      validFrom: createdAt,
      validUntil: new Date(Date.now() + 86_400_000),
      firstDebit: false,
      firstDebitAmountPaise: null,
      createdAt,
      updatedAt: createdAt,
    });
    await gw.rt.temporal.workflow.execute('pendingPaymentsSweepWorkflow', {
      taskQueue: gw.rt.config.temporal.taskQueue,
      workflowId: `sweep-mandate-test-${orderId}`,
      args: [pendingSweepInput(DEFAULT_PENDING_SWEEP.ageSeconds)],
    });
    const handle = gw.rt.temporal.workflow.getHandle(mandateWorkflowId(merchant.merchantIdentifier, orderId));
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    for (let i = 0; i < 100 && (await gw.rt.mandates.findByOrder(order))?.state === 'CREATED'; i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.equal((await gw.rt.mandates.findByOrder(order))?.state, 'ACTIVE');
  });

  it('orders that rightly wait for days never crowd a new orphan out of a run', async () => {
    // More old Pending orders than one run takes, all swept once already (as links waiting for payers are).
    const waiting = [];
    for (let i = 0; i < 4; i++) waiting.push(await orphanedOrder(10 * 60_000));
    const sweep = (limit: number, id: string) =>
      gw.rt.temporal.workflow.execute('pendingPaymentsSweepWorkflow', {
        taskQueue: gw.rt.config.temporal.taskQueue,
        workflowId: `sweep-starve-${id}`,
        args: [{ olderThanMs: 60_000, limit }],
      });
    // Sweep everything Pending that exists so far (other tests' orders too), so all are swept once.
    await sweep(100_000, waiting[0]!);
    const orphan = await orphanedOrder(2 * 60_000); // younger than every waiting order
    await sweep(1, orphan);
    assert.equal((await paymentFinished(gw, merchant.merchantIdentifier, orphan)).status, 'Success');
  });

  it('an order stored Pending before the sweep read a queue is queued by the start-up migration, then healed', async () => {
    const orderId = await orphanedOrder(10 * 60_000);
    const txns = gw.rt.store.db.collection<{ _id: string }>('transactions');
    // As an earlier version stored it: no sweep queue fields.
    await txns.updateOne({ _id: `${merchant.merchantIdentifier}:${orderId}` }, { $unset: { sweepLane: '', sweepDueAt: '' } });
    const due = async () => (await gw.rt.transactions.findPendingSince(new Date(), 100_000)).some((t) => t.orderId === orderId);
    assert.equal(await due(), false, 'outside the queue, the sweep does not see it');
    assert.ok((await gw.rt.transactions.queuePendingForSweep()) >= 1);
    assert.equal(await due(), true);
    await gw.rt.temporal.workflow.execute('pendingPaymentsSweepWorkflow', {
      taskQueue: gw.rt.config.temporal.taskQueue,
      workflowId: `sweep-migrated-${orderId}`,
      args: [{ olderThanMs: 60_000, limit: 100_000 }],
    });
    assert.equal((await paymentFinished(gw, merchant.merchantIdentifier, orderId)).status, 'Success');
  });

  // The workflow does not exist until the schedule's next run starts it; result() needs it to exist.
  async function resultOnceStarted(orderId: string) {
    for (;;) {
      try {
        return await workflowOf(orderId).result();
      } catch (e) {
        if (!(e instanceof WorkflowNotFoundError)) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  const sweepSchedule = () => gw.rt.temporal.schedule.getHandle(PENDING_SWEEP_SCHEDULE_ID);

  it('is scheduled every 5 minutes for orders Pending over a minute by default, idempotently', async () => {
    assert.deepEqual(pendingSweepSettings(gw.rt.config.payments), DEFAULT_PENDING_SWEEP);
    // From none: another file's worker process on this shared server (src/main/worker.ts) may have
    // left the schedule with its own settings, and updating that one would set lastUpdatedAt.
    await sweepSchedule()
      .delete()
      .catch(() => undefined);
    await ensureSchedules(gw.rt.temporal, gw.rt.config.temporal.taskQueue, pendingSweepSettings(gw.rt.config.payments));
    await ensureSchedules(gw.rt.temporal, gw.rt.config.temporal.taskQueue, pendingSweepSettings(gw.rt.config.payments));
    try {
      const schedule = await sweepSchedule().describe();
      assert.equal(schedule.action.type, 'startWorkflow');
      assert.equal(schedule.action.workflowType, 'pendingPaymentsSweepWorkflow');
      assert.equal(schedule.action.taskQueue, gw.rt.config.temporal.taskQueue);
      assert.deepEqual(
        schedule.spec.intervals?.map((i) => i.every),
        [300_000],
      );
      assert.deepEqual(schedule.action.args, [{ olderThanMs: 60_000, limit: 500 }]);
      assert.equal(schedule.info.lastUpdatedAt, undefined, 'a schedule that matches the configuration is left alone');
    } finally {
      await sweepSchedule().delete();
    }
  });

  it('takes a changed interval, age and task queue from the configuration into the existing schedule', async () => {
    await ensureSchedules(gw.rt.temporal, gw.rt.config.temporal.taskQueue, DEFAULT_PENDING_SWEEP);
    try {
      const quick = loadConfig({
        MASTER_KEY: gw.rt.config.secrets.masterKey,
        OPS_TOKEN: gw.rt.config.secrets.opsToken,
        PENDING_SWEEP_INTERVAL_SECONDS: '5',
        PENDING_SWEEP_AGE_SECONDS: '7',
      });
      await ensureSchedules(gw.rt.temporal, 'another-queue', pendingSweepSettings(quick.payments));

      const changed = await sweepSchedule().describe();
      assert.deepEqual(
        changed.spec.intervals?.map((i) => i.every),
        [5_000],
      );
      assert.deepEqual(changed.action.args, [{ olderThanMs: 7_000, limit: 500 }]);
      assert.equal(changed.action.taskQueue, 'another-queue');
      assert.ok(changed.info.lastUpdatedAt);
      // What the update keeps: the workflow, the overlap policy and the Kind search attribute.
      assert.equal(changed.action.workflowType, 'pendingPaymentsSweepWorkflow');
      assert.equal(changed.policies.overlap, 'SKIP');
      const attributes = changed.action.typedSearchAttributes;
      assert.ok(attributes instanceof TypedSearchAttributes);
      assert.equal(attributes.get(KindKey), 'sweep');

      // Back to the defaults with the gateway's own queue: the sweep runs where a worker polls.
      await ensureSchedules(gw.rt.temporal, gw.rt.config.temporal.taskQueue, DEFAULT_PENDING_SWEEP);
      const restored = await sweepSchedule().describe();
      assert.deepEqual(
        restored.spec.intervals?.map((i) => i.every),
        [300_000],
      );
      assert.deepEqual(restored.action.args, [{ olderThanMs: 60_000, limit: 500 }]);
      assert.equal(restored.action.taskQueue, gw.rt.config.temporal.taskQueue);
    } finally {
      await sweepSchedule().delete();
    }
  });

  it('sweeps on the configured interval: an orphan older than the configured age gets its workflow', async () => {
    await ensureSchedules(gw.rt.temporal, gw.rt.config.temporal.taskQueue, { intervalSeconds: 1, ageSeconds: 1 });
    try {
      const orphan = await orphanedOrder(2_000);
      // No one starts it but the schedule; result() waits for the workflow to exist and finish.
      assert.equal((await resultOnceStarted(orphan)).status, 'Success');
      assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orphan))?.status, 'Success');
    } finally {
      await sweepSchedule().delete();
    }
  });
});
