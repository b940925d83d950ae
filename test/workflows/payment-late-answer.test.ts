import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import type { BankAnswer, BankPaymentRequest, BankReply } from '../../src/bank/connector';
import type { RecordOutcomeInput } from '../../activities/payment-activities';
import type { PaymentInstrument } from '../../src/domain/instrument';
import { bankAnswerUpdate, paymentStageQuery, type PaymentStage } from '../../src/temporal/payment-messages';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import type { paymentWorkflow } from '../../workflows/payment';
import type { PaymentWorkflowInput } from '../../src/temporal/payment-contract';
import { timeSkippingPerSuite, workflowBundle } from '../support/servers';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const approval: BankAnswer = { approved: true, response: 'success', bankRefNum: '310987654321', authCode: 'A1' };

/**
 * A bank answer that arrives late (principle 14): the payment workflow takes it through
 * `bankAnswerUpdate` while it has not decided, and refuses it once it decided, so its sender reads
 * the transaction again instead of being told "delivered" while the answer is dropped. The bank and
 * store activities are faked: the point is the interleaving of the answer with the recording.
 */
describe('payment workflow: late bank answers (time-skipping)', function () {
  this.timeout(120_000);
  const env = timeSkippingPerSuite();
  const taskQueue = 'payment-late-answer-test';
  const recorded = new Map<string, RecordOutcomeInput[]>();
  /** Recordings that wait until the test releases them (a store that is slow or down). */
  const gates = new Map<string, Promise<void>>();
  function holdRecording(txnId: string): () => void {
    let release!: () => void;
    gates.set(txnId, new Promise<void>((r) => (release = r)));
    return release;
  }

  const activities = {
    async requestBankPayment(request: BankPaymentRequest): Promise<BankReply> {
      if (request.instrument.kind === 'UPI' && request.instrument.vpa === 'refused@sandbox')
        throw ApplicationFailure.nonRetryable(`POST /v1/payments: the bank refused the request with 400`, 'BankRequestRefused');
      return { kind: 'awaiting' };
    },
    async inquireBankPayment(): Promise<BankAnswer | null> {
      return null;
    },
    async recordPaymentOutcome(input: RecordOutcomeInput) {
      recorded.set(input.txnId, [...(recorded.get(input.txnId) ?? []), input]);
      await gates.get(input.txnId);
      return { status: input.answer?.approved ? 'Success' : 'Failure', applied: true };
    },
  };

  async function start(instrument: PaymentInstrument, extra: Partial<PaymentWorkflowInput> = {}) {
    const id = randomBytes(6).toString('hex');
    const input: PaymentWorkflowInput = {
      txnId: `TXN${id}`,
      merchantIdentifier: 'b'.repeat(32),
      orderId: `late-${id}`,
      amountPaise: 10_000,
      instrument,
      bankTimeoutMs: FIFTEEN_MINUTES,
      realtimeWebhook: false,
      ...extra,
    };
    const handle = await env().client.workflow.start<typeof paymentWorkflow>('paymentWorkflow', {
      workflowId: paymentWorkflowId(input.merchantIdentifier, input.orderId),
      taskQueue,
      args: [input],
    });
    return { handle, txnId: input.txnId };
  }
  const upi: PaymentInstrument = { kind: 'UPI', vpa: 'noanswer@sandbox', bankName: 'Sandbox UPI Bank' };

  async function withWorker<T>(fn: () => Promise<T>): Promise<T> {
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    return worker.runUntil(fn);
  }

  /** Polls the stage (a query does not let the time-skipping server skip time). */
  async function untilStage(handle: WorkflowHandle, stage: PaymentStage) {
    for (let i = 0; i < 200; i++) {
      if ((await handle.query(paymentStageQuery)) === stage) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`the workflow never reached ${stage}`);
  }

  it('takes an answer offered while it waits for the bank, and records that answer', async () => {
    const { txnId, result } = await withWorker(async () => {
      const { handle, txnId } = await start(upi);
      await untilStage(handle, 'awaiting-bank');
      assert.equal(await handle.executeUpdate(bankAnswerUpdate, { args: [approval] }), 'accepted');
      return { txnId, result: await handle.result() };
    });
    assert.equal(result.status, 'Success');
    assert.deepEqual(recorded.get(txnId)?.[0]?.answer, approval);
  });

  it('refuses an answer that arrives while it records a silent bank as failed, so its sender re-reads', async () => {
    const { txnId, result } = await withWorker(async () => {
      const { handle, txnId } = await start(upi);
      const release = holdRecording(txnId);
      await untilStage(handle, 'awaiting-bank');
      await env().sleep(FIFTEEN_MINUTES + 1000);
      await untilStage(handle, 'recording');
      // The old signal was kept nowhere here and the callback answered "delivered": now the sender knows.
      await assert.rejects(handle.executeUpdate(bankAnswerUpdate, { args: [approval] }), WorkflowUpdateFailedError);
      release();
      return { txnId, result: await handle.result() };
    });
    assert.deepEqual(result, { txnId, status: 'Failure', markedFailedByService: true });
    assert.equal(recorded.get(txnId)?.[0]?.answer, null, 'the silent bank was recorded, the refused answer was not');
  });

  it('refuses an answer once it has one (the first word counts) and after it finished', async () => {
    await withWorker(async () => {
      const { handle, txnId } = await start(upi);
      const release = holdRecording(txnId);
      await untilStage(handle, 'awaiting-bank');
      assert.equal(await handle.executeUpdate(bankAnswerUpdate, { args: [approval] }), 'accepted');
      await untilStage(handle, 'recording');
      await assert.rejects(handle.executeUpdate(bankAnswerUpdate, { args: [approval] }), WorkflowUpdateFailedError);
      release();
      assert.equal((await handle.result()).status, 'Success');
      await assert.rejects(handle.executeUpdate(bankAnswerUpdate, { args: [approval] }));
    });
  });

  it('a QR waiting for its payer takes the bank answer of a payment made outside our sight', async () => {
    const result = await withWorker(async () => {
      const { handle } = await start({ kind: 'UPI_QR' }, { awaitPayerMs: FIFTEEN_MINUTES });
      await untilStage(handle, 'awaiting-payer');
      assert.equal(await handle.executeUpdate(bankAnswerUpdate, { args: [{ ...approval, delayed: true }] }), 'accepted');
      return handle.result();
    });
    assert.equal(result.status, 'Success');
  });

  it('a bank that refuses the request (non-retryable): Failure 1022 decided by the service, never Pending for ever', async () => {
    const { txnId, result } = await withWorker(async () => {
      const { handle, txnId } = await start({ ...upi, vpa: 'refused@sandbox' });
      return { txnId, result: await handle.result() };
    });
    assert.deepEqual(result, { txnId, status: 'Failure', markedFailedByService: true });
    const [input] = recorded.get(txnId) ?? [];
    assert.equal(input?.answer, null);
    assert.equal(input?.refusedByBank, true);
  });
});
