import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { BankAnswer, BankPaymentRequest } from '../../src/bank/connector';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { sandboxInstrument } from '../../src/domain/sandbox-bank';
import type { PaymentInstrument } from '../../src/domain/instrument';
import type { Transaction } from '../../src/domain/transaction';
import { bankAnswerSignal, paymentStageQuery, qrPayerUpdate } from '../../src/temporal/payment-messages';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { ensurePaymentWorkflow } from '../../src/usecases/start-payment';
import type { PaymentWorkflowResult } from '../../src/temporal/payment-contract';
import { timeSkippingEnvironment, workflowBundle } from '../support/servers';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/**
 * The payment workflow on the time-skipping server. The bank is the real sandbox connector; the
 * store activity is faked in memory because the point here is the workflow, and it counts calls.
 */
describe('payment workflow (time-skipping)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  const taskQueue = 'payment-workflow-test';
  const recorded = new Map<string, { answer: BankAnswer | null; calls: number }>();
  let bankCalls = 0;
  /** What the status inquiry finds, by txnId (nothing: the bank has no final answer either). */
  const inquiries = new Map<string, { answer: BankAnswer | null; calls: number }>();

  const activities = {
    async requestBankPayment(request: BankPaymentRequest) {
      bankCalls++;
      return new SandboxBankConnector().requestPayment(request);
    },
    async inquireBankPayment({ txnId }: { txnId: string }) {
      const entry = inquiries.get(txnId) ?? { answer: null, calls: 0 };
      entry.calls++;
      inquiries.set(txnId, entry);
      return entry.answer;
    },
    async recordPaymentOutcome({ txnId, answer }: { txnId: string; answer: BankAnswer | null }) {
      const existing = recorded.get(txnId);
      if (existing) {
        existing.calls++;
        return { status: statusOf(existing.answer), applied: false };
      }
      recorded.set(txnId, { answer, calls: 1 });
      return { status: statusOf(answer), applied: true };
    },
  };
  const statusOf = (a: BankAnswer | null) => (a?.approved ? 'Success' : 'Failure');
  /** First webhook attempts asked of the (fake) receiver, by delivery id. */
  const firstAttempts = new Map<string, number>();
  const webhookActivities = {
    async deliverWebhookFirstAttempt({ deliveryId }: { deliveryId: string }) {
      firstAttempts.set(deliveryId, (firstAttempts.get(deliveryId) ?? 0) + 1);
      return { state: 'delivered', attempts: 1 };
    },
  };

  before(async () => {
    env = await timeSkippingEnvironment();
  });
  after(async () => {
    await env?.teardown();
  });

  async function withWorker<T>(fn: () => Promise<T>): Promise<T> {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: { ...activities, ...webhookActivities },
    });
    return worker.runUntil(fn);
  }

  function transaction(instrumentInput: Parameters<typeof sandboxInstrument>[0], amountPaise = 10_000): Transaction {
    const r = sandboxInstrument(instrumentInput, () => 'card-id');
    if (!r.ok) throw new Error(r.problem);
    const now = new Date();
    const id = randomBytes(6).toString('hex');
    return {
      txnId: `TXN${id}`,
      merchantIdentifier: 'a'.repeat(32),
      orderId: `order-${id}`,
      amountPaise,
      productDescription: 'Tea',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: r.instrument as PaymentInstrument,
      status: 'Pending',
      responseCode: '208',
      responseDescription: 'pending',
      bankRefNum: null,
      authCode: null,
      markedFailedByService: false,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      successAt: null,
      refunds: [],
      version: 1,
    };
  }

  const deps = () => ({
    temporal: env.client,
    taskQueue,
    bankTimeoutMs: FIFTEEN_MINUTES,
    qrExpiryMs: FIFTEEN_MINUTES,
    now: () => new Date(),
    // The real-time webhook each outcome starts is not this test's point (test/workflows/webhook.test.ts is).
    realtimeWebhook: false,
  });

  async function pay(t: Transaction): Promise<PaymentWorkflowResult> {
    await ensurePaymentWorkflow(deps(), t);
    return env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId)).result();
  }

  it('records Success when the bank approves', async () => {
    const t = transaction({ payerVpa: 'success@sandbox' });
    const result = await withWorker(() => pay(t));
    assert.deepEqual(result, { txnId: t.txnId, status: 'Success', markedFailedByService: false });
    assert.equal(recorded.get(t.txnId)?.answer?.response, 'success');
    assert.match(recorded.get(t.txnId)?.answer?.bankRefNum ?? '', /^\d{12}$/);
  });

  it('a payment whose bank answers at once, with its webhook, takes one workflow task and no activity task (issue 35)', async () => {
    const t = transaction({ payerVpa: 'success@sandbox' });
    const result = await withWorker(async () => {
      await ensurePaymentWorkflow({ ...deps(), realtimeWebhook: true }, t);
      return env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId)).result();
    });
    assert.equal(result.status, 'Success');
    assert.equal(firstAttempts.get(`rt:${t.merchantIdentifier}:${t.orderId}`), 1, 'its webhook was attempted once');
    const history = await env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId)).fetchHistory();
    const count = (type: temporal.api.enums.v1.EventType) => history.events!.filter((e) => e.eventType === type).length;
    const { EVENT_TYPE_WORKFLOW_TASK_COMPLETED, EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, EVENT_TYPE_MARKER_RECORDED } =
      temporal.api.enums.v1.EventType;
    // The bank request, the outcome's write and the first webhook attempt are local activities: markers, no tasks.
    const tasks = count(EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    assert.ok(tasks <= 2, `${tasks} workflow tasks`);
    assert.equal(count(EVENT_TYPE_ACTIVITY_TASK_SCHEDULED), 0, 'no activity task');
    const localActivities = history.events!.filter(
      (e) => e.eventType === EVENT_TYPE_MARKER_RECORDED && e.markerRecordedEventAttributes?.markerName === 'core_local_activity',
    );
    assert.equal(localActivities.length, 3, 'the bank request, the outcome and the first webhook attempt');
  });

  it('records Failure when the bank declines, and 1021 below 9 rupees', async () => {
    const declined = transaction({ cardNumber: '4000000000000002' });
    const small = transaction({ bankCode: 'SBIN' }, 500);
    const [a, b] = await withWorker(async () => [await pay(declined), await pay(small)]);
    assert.equal(a.status, 'Failure');
    assert.equal(recorded.get(declined.txnId)?.answer?.response, 'declinedByBank');
    assert.equal(b.status, 'Failure');
    assert.equal(recorded.get(small.txnId)?.answer?.response, 'belowMinimum');
  });

  it('marks a payment Failure when the bank stays silent past the timeout', async () => {
    const t = transaction({ payerVpa: 'noanswer@sandbox' });
    const before = await env.currentTimeMs();
    const result = await withWorker(() => pay(t));
    const waited = (await env.currentTimeMs()) - before;
    assert.deepEqual(result, { txnId: t.txnId, status: 'Failure', markedFailedByService: true });
    assert.equal(recorded.get(t.txnId)?.answer, null);
    assert.ok(waited >= FIFTEEN_MINUTES, `waited ${waited} ms of workflow time`);
    assert.equal(inquiries.get(t.txnId)?.calls, 1, 'asked the bank once before giving up');
  });

  it('a silent bank whose status inquiry has the final answer: that answer, not 1023', async () => {
    const t = transaction({ payerVpa: 'noanswer@sandbox' });
    const answer: BankAnswer = { approved: true, response: 'success', bankRefNum: '210987654321', authCode: '123123' };
    inquiries.set(t.txnId, { answer, calls: 0 });
    const result = await withWorker(() => pay(t));
    assert.deepEqual(result, { txnId: t.txnId, status: 'Success', markedFailedByService: false });
    assert.deepEqual(recorded.get(t.txnId)?.answer, answer);
    assert.equal(inquiries.get(t.txnId)?.calls, 1);
  });

  it('takes a late bank answer that arrives before the timeout (the signal older API processes send)', async () => {
    const t = transaction({ payerVpa: 'noanswer@sandbox' });
    const result = await withWorker(async () => {
      await ensurePaymentWorkflow(deps(), t);
      const handle = env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId));
      await env.sleep('5 minutes');
      assert.equal(await handle.query(paymentStageQuery), 'awaiting-bank');
      await handle.signal(bankAnswerSignal, {
        approved: true,
        response: 'success',
        bankRefNum: '123456789012',
        authCode: '654321',
      });
      return handle.result();
    });
    assert.equal(result.status, 'Success');
    assert.equal(result.markedFailedByService, false);
    assert.equal(recorded.get(t.txnId)?.answer?.bankRefNum, '123456789012');
    assert.equal(inquiries.get(t.txnId), undefined, 'no inquiry: the bank answered in time');
  });

  it('a repeated start for the same order runs no second workflow and keeps the first result', async () => {
    const t = transaction({ payerVpa: 'success@sandbox' });
    const callsBefore = bankCalls;
    const handle = env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId));
    const { first, firstRunId } = await withWorker(async () => {
      // Twice while running (a payer's double click), then again after it finished.
      await Promise.all([ensurePaymentWorkflow(deps(), t), ensurePaymentWorkflow(deps(), t)]);
      const result = await handle.result();
      const firstRunId = (await handle.describe()).runId;
      await ensurePaymentWorkflow(deps(), { ...t, amountPaise: 1 });
      return { first: result, firstRunId };
    });
    assert.equal((await handle.describe()).runId, firstRunId, 'no second run under the same workflow id');
    assert.deepEqual(await handle.result(), first);
    assert.equal(first.status, 'Success');
    assert.equal(bankCalls - callsBefore, 1, 'the bank was asked once');
    assert.equal(recorded.get(t.txnId)?.calls, 1, 'the outcome was recorded once');
    await assert.rejects(
      env.client.workflow.start('paymentWorkflow', {
        workflowId: handle.workflowId,
        taskQueue,
        args: [],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
      WorkflowExecutionAlreadyStartedError,
    );
  });

  describe('dynamic QR', () => {
    const qrOrder = (): Transaction => ({ ...transaction({ payerVpa: 'success@sandbox' }), instrument: { kind: 'UPI_QR' } });
    const qrDeps = async () => ({ ...deps(), now: () => new Date(0) });

    it('waits for the payer until the QR expires, then records the expiry without asking the bank', async () => {
      const t = { ...qrOrder(), createdAt: new Date(0) };
      const callsBefore = bankCalls;
      const before = await env.currentTimeMs();
      const result = await withWorker(async () => {
        await ensurePaymentWorkflow(await qrDeps(), t);
        return env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId)).result();
      });
      assert.deepEqual(result, { txnId: t.txnId, status: 'Failure', markedFailedByService: true });
      assert.ok((await env.currentTimeMs()) - before >= FIFTEEN_MINUTES, 'the QR stayed open for its whole window');
      assert.equal(bankCalls, callsBefore, 'nobody paid, so the bank was never asked');
    });

    it('takes one payer before expiry and refuses a second', async () => {
      const t = { ...qrOrder(), createdAt: new Date(0) };
      const result = await withWorker(async () => {
        await ensurePaymentWorkflow(await qrDeps(), t);
        const handle = env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId));
        await env.sleep('10 minutes');
        assert.equal(await handle.query(paymentStageQuery), 'awaiting-payer');
        const payer = { kind: 'UPI' as const, vpa: 'success@sandbox', bankName: 'Sandbox UPI Bank', viaQr: true as const };
        assert.equal(await handle.executeUpdate(qrPayerUpdate, { args: [payer] }), 'accepted');
        await assert.rejects(handle.executeUpdate(qrPayerUpdate, { args: [{ ...payer, vpa: 'failure@sandbox' }] }));
        return handle.result();
      });
      assert.equal(result.status, 'Success');
      assert.equal(recorded.get(t.txnId)?.answer?.response, 'success');
    });
  });

  describe('payment link', () => {
    const WEEK = 7 * 24 * 3_600_000;
    const linkOrder = (): Transaction => ({
      ...transaction({ payerVpa: 'success@sandbox' }),
      instrument: { kind: 'PAYMENT_LINK' },
      createdAt: new Date(0),
      payerDeadline: new Date(WEEK),
    });
    const linkDeps = async () => ({ ...deps(), now: () => new Date(0) });

    it('stays open for a week until linkExpireBy (a durable timer), then expires without asking the bank', async () => {
      const t = linkOrder();
      const callsBefore = bankCalls;
      const before = await env.currentTimeMs();
      const result = await withWorker(async () => {
        await ensurePaymentWorkflow(await linkDeps(), t);
        const handle = env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId));
        await env.sleep('6 days');
        assert.equal(await handle.query(paymentStageQuery), 'awaiting-payer', 'still open after six days');
        return handle.result();
      });
      assert.deepEqual(result, { txnId: t.txnId, status: 'Failure', markedFailedByService: true });
      assert.ok((await env.currentTimeMs()) - before >= WEEK, 'open for the whole week');
      assert.equal(bankCalls, callsBefore);
    });

    it('takes the payer who comes on the sixth day, whatever the instrument', async () => {
      const t = linkOrder();
      const result = await withWorker(async () => {
        await ensurePaymentWorkflow(await linkDeps(), t);
        const handle = env.client.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId));
        await env.sleep('6 days');
        const card = sandboxInstrument({ cardNumber: '4012001037141112' }, () => 'card-id');
        assert.ok(card.ok);
        assert.equal(await handle.executeUpdate(qrPayerUpdate, { args: [card.instrument] }), 'accepted');
        return handle.result();
      });
      assert.equal(result.status, 'Success');
    });
  });
});
