import assert from 'node:assert/strict';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import { mandateWorkflowClient } from '../../src/temporal/mandate-client';
import { paymentWorkflowClient } from '../../src/temporal/payment-client';
import { reconciliationWorkflowClient } from '../../src/temporal/reconciliation-client';
import { refundWorkflowClient } from '../../src/temporal/refund-client';
import { webhookBatchWorkflowClient } from '../../src/temporal/webhook-batch-client';

/**
 * The typed clients own what a start sends: the workflow type, its id (the business id, so Temporal
 * itself refuses a second workflow for one order), the id policies, search attributes and memo. A
 * recording stand-in for the client's `workflow` shows exactly what reaches Temporal; the API tests
 * run the same clients against the real server.
 */
function recordingClient(o: { alreadyStarted?: boolean } = {}) {
  const calls: { method: string; type: string; options: Record<string, unknown> }[] = [];
  const record = (method: string) => async (type: string, options: Record<string, unknown>) => {
    calls.push({ method, type, options });
    if (o.alreadyStarted) throw new WorkflowExecutionAlreadyStartedError('started', String(options.workflowId), type);
    return {};
  };
  const client = { workflow: { start: record('start'), signalWithStart: record('signalWithStart') } } as unknown as Client;
  return { client, calls };
}

const attributes = (options: Record<string, unknown>) =>
  Object.fromEntries(
    (options.typedSearchAttributes as { key: { name: string }; value: unknown }[]).map((a) => [a.key.name, a.value]),
  );

describe('Typed workflow clients', () => {
  it('start a payment by its order, reused while it runs and refused once closed', async () => {
    const { client, calls } = recordingClient();
    const input = {
      txnId: 't1',
      merchantIdentifier: 'm1',
      orderId: 'o1',
      amountPaise: 12345,
      instrument: { kind: 'UPI_QR' as const },
      bankTimeoutMs: 900_000,
      awaitPayerMs: 60_000,
    };
    assert.equal(await paymentWorkflowClient(client).startUnlessExists('q', input), true);
    const [{ method, type, options }] = calls;
    assert.equal(method, 'start');
    assert.equal(type, 'paymentWorkflow');
    assert.equal(options.workflowId, 'payment:m1:o1');
    assert.equal(options.taskQueue, 'q');
    assert.deepEqual(options.args, [input]);
    assert.equal(options.workflowIdConflictPolicy, WorkflowIdConflictPolicy.USE_EXISTING);
    assert.equal(options.workflowIdReusePolicy, WorkflowIdReusePolicy.REJECT_DUPLICATE);
    assert.deepEqual(attributes(options), { MerchantId: 'm1', OrderId: 'o1', TxnStatus: 'Pending', Kind: 'qr-payment' });
    assert.deepEqual(options.memo, { txnId: 't1', amount: '₹123.45', instrument: 'UPI QR, awaiting the payer' });
  });

  it('answer false, not an error, when the workflow exists already', async () => {
    const { client } = recordingClient({ alreadyStarted: true });
    const input = {
      merchantIdentifier: 'm1',
      orderId: 'o1',
      txnId: 't1',
      bankRefNum: null,
      merchantRefId: 'r1',
      amountPaise: 500,
      reason: 'x',
    };
    assert.equal(await refundWorkflowClient(client).startUnlessExists('q', input), false);
  });

  it('start a refund by its merchantRefId and a mandate by its order, with their own Kind', async () => {
    const { client, calls } = recordingClient();
    await refundWorkflowClient(client).startUnlessExists('q', {
      merchantIdentifier: 'm1',
      orderId: 'o1',
      txnId: 't1',
      bankRefNum: null,
      merchantRefId: 'r1',
      amountPaise: 500,
      reason: 'damaged',
    });
    await mandateWorkflowClient(client).startUnlessExists(
      'q',
      {
        merchantIdentifier: 'm1',
        orderId: 'mo1',
        txnId: 't2',
        payerVpa: 'a@b',
        frequency: 'Daily',
        validUntilMs: 1,
        productDescription: 'p',
        firstDebit: null,
        payerAnswerDelayMs: 1,
        debitRetryIntervalMs: 1,
        updatesPerRun: 1000,
      },
      { maxAmountPaise: 100_000, mode: 'upiCollectMandate' },
    );
    const [refund, mandate] = calls;
    assert.equal(refund.options.workflowId, 'refund:m1:o1:r1');
    assert.deepEqual(attributes(refund.options), { MerchantId: 'm1', OrderId: 'o1', Kind: 'refund' });
    assert.deepEqual(refund.options.memo, { txnId: 't1', merchantRefId: 'r1', amount: '₹5.00', reason: 'damaged' });
    assert.equal(mandate.type, 'mandateWorkflow');
    assert.equal(mandate.options.workflowId, 'mandate:m1:mo1');
    assert.equal(mandate.options.workflowIdReusePolicy, WorkflowIdReusePolicy.REJECT_DUPLICATE);
    assert.deepEqual(attributes(mandate.options), { MerchantId: 'm1', OrderId: 'mo1', Kind: 'mandate', MandateState: 'CREATED' });
    assert.deepEqual(mandate.options.memo, {
      txnId: 't2',
      maxAmount: '₹1000.00',
      frequency: 'Daily',
      mode: 'upiCollectMandate',
    });
  });

  it("bring a late update to the merchant's one batch, and start a reconciliation with its file's counts", async () => {
    const { client, calls } = recordingClient();
    const update = { kind: 'txn' as const, orderId: 'o1', amountPaise: 100, at: '2026-01-01T00:00:00.000Z' };
    await webhookBatchWorkflowClient(client).addLateUpdate('q', { merchantIdentifier: 'm1', windowMs: 60_000 }, update);
    await reconciliationWorkflowClient(client).start(
      'q',
      { reconciliationId: 'rcn-1', batches: 2 },
      { lines: 700, unparsable: 3 },
    );
    const [batch, reconciliation] = calls;
    assert.equal(batch.method, 'signalWithStart');
    assert.equal(batch.options.workflowId, 'webhook-batch:m1');
    assert.deepEqual(batch.options.signalArgs, [update]);
    assert.equal((batch.options.signal as { name: string }).name, 'lateUpdate');
    assert.deepEqual(attributes(batch.options), { MerchantId: 'm1', Kind: 'webhook-batch' });
    assert.equal(reconciliation.options.workflowId, 'reconciliation:rcn-1');
    assert.deepEqual(reconciliation.options.memo, { lines: 700, unparsable: 3, batches: 2 });
    assert.deepEqual(attributes(reconciliation.options), { Kind: 'reconciliation' });
  });
});
