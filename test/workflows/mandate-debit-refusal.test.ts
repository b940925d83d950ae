import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import type { BankPaymentRequest } from '../../src/bank/connector';
import type { MandateDebitReply } from '../../activities/mandate-activities';
import type { MandateDebitInput, MandateDebitOutcome, MandateDebitResult } from '../../src/temporal/mandate-debit-contract';
import { timeSkippingPerSuite, workflowBundle } from '../support/servers';

/**
 * The bank refuses a debit request (the connector's non-retryable failure, e.g. an HTTP 4xx). The
 * point is the workflow, so the activities are fakes: the refused attempt is a failed attempt, the
 * debit retries per its schedule or ends executionFailed (1112), recorded once, and the workflow
 * itself completes instead of failing with the debit left Pending.
 */
describe('a mandate debit the bank refuses (time-skipping, fake activities)', function () {
  this.timeout(120_000);
  let stopWorker: (() => Promise<void>) | undefined;
  // Registered first, so it runs before the environment's teardown (which needs the worker gone).
  after(async () => stopWorker?.());
  const env = timeSkippingPerSuite();
  const taskQueue = `mandate-debit-refusal-${randomBytes(3).toString('hex')}`;
  /** What each bank request does, in order: 'refuse' throws non-retryable, 'approve' answers approved. */
  let script: Array<'refuse' | 'approve'> = [];
  let bankRequests: string[] = [];
  let recorded: MandateDebitResult[] = [];

  before(async () => {
    const activities = {
      async requestMandateDebit(input: { request: BankPaymentRequest; offPeak: boolean }): Promise<MandateDebitReply> {
        bankRequests.push(input.request.txnId);
        const step = script.shift();
        if (step === 'approve') {
          return {
            kind: 'sent',
            reply: { kind: 'answered', answer: { approved: true, response: 'success', bankRefNum: 'B1', authCode: 'A1' } },
          };
        }
        throw ApplicationFailure.nonRetryable('bank answered HTTP 400: request refused', 'bankRefused');
      },
      async recordMandateDebitOutcome(input: { result: MandateDebitResult }) {
        recorded.push(input.result);
        return { status: input.result === 'executed' ? 'Success' : 'Failure', applied: true };
      },
    };
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    const run = worker.run();
    stopWorker = async () => {
      worker.shutdown();
      await run;
    };
  });

  async function debit(maxRetries: number): Promise<MandateDebitOutcome> {
    bankRequests = [];
    recorded = [];
    const txnId = `T${randomBytes(4).toString('hex')}`;
    const input: MandateDebitInput = {
      merchantIdentifier: 'm-refusal',
      mandateOrderId: 'MANDATE1',
      orderId: `D-${txnId}`,
      txnId,
      amountPaise: 10_000,
      payerVpa: 'payer@sandbox',
      executeAtMs: Date.now(),
      autoExecute: true,
      maxRetries,
      retryIntervalMs: 60 * 60 * 1000,
      customerInitiated: true,
      realtimeWebhook: false,
    };
    return env().client.workflow.execute('mandateDebitWorkflow', { taskQueue, workflowId: `refusal-${txnId}`, args: [input] });
  }

  it('refused on every attempt: the debit ends executionFailed after its retries, recorded once', async () => {
    script = ['refuse', 'refuse', 'refuse', 'refuse'];
    const outcome = await debit(3);
    assert.deepEqual(outcome, { result: 'executionFailed', status: 'Failure', attempts: 4 });
    assert.equal(bankRequests.length, 4, 'one request per attempt: the first and 3 retries');
    assert.deepEqual(recorded, ['executionFailed']);
  });

  it('a refused attempt is retried on schedule, and a later approval executes the debit', async () => {
    script = ['refuse', 'approve'];
    const outcome = await debit(3);
    assert.deepEqual(outcome, { result: 'executed', status: 'Success', attempts: 2 });
    assert.equal(bankRequests.length, 2);
    assert.match(bankRequests[1]!, /R1$/, 'the retry is its own bank request');
    assert.deepEqual(recorded, ['executed']);
  });

  it('a first debit (no retries) the bank refuses ends executionFailed at once', async () => {
    script = ['refuse'];
    const outcome = await debit(0);
    assert.deepEqual(outcome, { result: 'executionFailed', status: 'Failure', attempts: 1 });
    assert.deepEqual(recorded, ['executionFailed']);
  });
});
