import { strict as assert } from 'node:assert';
import { WorkflowNotFoundError } from '@temporalio/client';
import { newTxnId } from '../../src/domain/identifiers';
import { ensureSchedules, PENDING_SWEEP_INPUT, PENDING_SWEEP_SCHEDULE_ID } from '../../src/temporal/schedules';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, storedTransaction } from '../support/payments';

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

  it('starts the missing workflow of a stale Pending order, and leaves fresh ones alone', async () => {
    const stale = await orphanedOrder(5 * 60_000);
    const fresh = await orphanedOrder(0);
    await assert.rejects(workflowOf(stale).describe(), WorkflowNotFoundError);

    const swept = await gw.rt.temporal.workflow.execute('pendingPaymentsSweepWorkflow', {
      taskQueue: gw.rt.config.TEMPORAL_TASK_QUEUE,
      workflowId: `sweep-test-${stale}`,
      args: [PENDING_SWEEP_INPUT],
    });
    assert.ok(swept.checked >= 1);

    assert.equal((await paymentFinished(gw, merchant.merchantIdentifier, stale)).status, 'Success');
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, stale))?.status, 'Success');
    await assert.rejects(workflowOf(fresh).describe(), WorkflowNotFoundError);
  });

  it('is scheduled every 5 minutes by the worker, idempotently', async () => {
    await ensureSchedules(gw.rt.temporal, gw.rt.config.TEMPORAL_TASK_QUEUE);
    await ensureSchedules(gw.rt.temporal, gw.rt.config.TEMPORAL_TASK_QUEUE);
    const schedule = await gw.rt.temporal.schedule.getHandle(PENDING_SWEEP_SCHEDULE_ID).describe();
    assert.equal(schedule.action.type, 'startWorkflow');
    assert.equal(schedule.action.type === 'startWorkflow' && schedule.action.workflowType, 'pendingPaymentsSweepWorkflow');
    assert.equal(schedule.spec.intervals?.[0]?.every, 300_000);
    await gw.rt.temporal.schedule.getHandle(PENDING_SWEEP_SCHEDULE_ID).delete();
  });
});
