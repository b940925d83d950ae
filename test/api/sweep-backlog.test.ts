import { strict as assert } from 'node:assert';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { BankConnector } from '../../src/bank/connector';
import type { SweepInput } from '../../src/temporal/sweep-contract';
import { newTxnId } from '../../src/domain/identifiers';
import { mandateWorkflowDeps, ensureMandateWorkflow } from '../../src/usecases/create-mandate';
import { ensureRefundWorkflow } from '../../src/usecases/start-refund';
import { mandateWorkflowId, paymentWorkflowId, refundWorkflowId } from '../../src/temporal/workflow-ids';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId } from '../support/payments';

/**
 * A backlog of refunds and mandates that rightly wait (the bank is slow to refund, payers have not
 * approved) is larger than one read of the sweep: an orphan behind it is still healed, because the
 * sweep reads least recently swept first and pages on (activities/sweep-activities.ts).
 */
describe('pending sweep with a backlog larger than a page', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  const started: string[] = [];

  before(async () => {
    // The bank does not answer refunds or mandate approvals yet: their workflows keep retrying, and
    // the store keeps them PENDING and CREATED, as a bank that takes days would.
    gw = await startTestGateway(
      {},
      {
        activityDeps: (deps) => ({
          ...deps,
          bank: new Proxy(deps.bank, {
            get(target, name: keyof BankConnector) {
              if (name === 'requestRefund' || name === 'requestMandateApproval')
                return () => Promise.reject(new Error('the bank does not answer yet (test)'));
              return target[name];
            },
          }),
        }),
        bank: 'sandbox',
      },
    );
    merchant = await gw.newMerchant('Sweep backlog');
  });

  after(async () => {
    for (const id of started)
      await gw.rt.temporal.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
    // Nothing of this merchant stays due for other suites' sweeps.
    await gw.rt.store.db.collection('transactions').deleteMany({ merchantIdentifier: merchant.merchantIdentifier });
    await gw.rt.store.db.collection('mandates').deleteMany({ merchantIdentifier: merchant.merchantIdentifier });
    await gw.stop();
  });

  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

  /** A paid order with a refund accepted at `at`; its workflow started unless `orphan`. */
  async function refundingOrder(at: Date, orphan = false) {
    const orderId = newOrderId(orphan ? 'orphan-refund' : 'waiting-refund');
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId };
    await gw.rt.transactions.createPending({
      txnId: newTxnId(at),
      ...order,
      amountPaise: 5_000,
      productDescription: 'Backlog',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox UPI Bank' },
      createdAt: at,
    });
    const t = (await gw.rt.transactions.findByOrder(order))!;
    const entry = {
      merchantRefId: 'r1',
      amountPaise: 5_000,
      rrn: null,
      status: 'PENDING' as const,
      createdAt: at,
      updateDesired: '14' as const,
      updateReason: 'customer request',
    };
    const refunding = (await gw.rt.transactions.updateIfUnchanged(order, t.version, {
      set: { status: 'Refund', bankRefNum: 'BRN1', refundReservedPaise: 5_000, updatedAt: at, completedAt: at, successAt: at },
      pushRefund: entry,
    }))!;
    const workflowId = refundWorkflowId(merchant.merchantIdentifier, orderId, 'r1');
    started.push(workflowId);
    if (!orphan)
      await ensureRefundWorkflow({ temporal: gw.rt.temporal, taskQueue: gw.rt.config.temporal.taskQueue }, refunding, entry);
    return workflowId;
  }

  /** A mandate stored CREATED at `at`; its workflow (waiting for the payer) started unless `orphan`. */
  async function createdMandate(at: Date, orphan = false) {
    const orderId = newOrderId(orphan ? 'orphan-mandate' : 'waiting-mandate');
    const { mandate } = await gw.rt.mandates.insert({
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      txnId: newTxnId(at),
      mode: 'upiCollectMandate',
      state: 'CREATED',
      payerVpa: 'success@sandbox',
      maxAmountPaise: 100_000,
      productDescription: 'Backlog mandate',
      frequency: 'Adhoc',
      validFrom: at,
      validUntil: new Date(Date.now() + 86_400_000),
      firstDebit: false,
      firstDebitAmountPaise: null,
      createdAt: at,
      updatedAt: at,
    });
    const workflowId = mandateWorkflowId(merchant.merchantIdentifier, orderId);
    started.push(workflowId);
    if (!orphan) await ensureMandateWorkflow(mandateWorkflowDeps(gw.rt.config, gw.rt.temporal), mandate);
    return workflowId;
  }

  const sweep = (input: SweepInput) =>
    gw.rt.temporal.workflow.execute('pendingPaymentsSweepWorkflow', {
      taskQueue: gw.rt.config.temporal.taskQueue,
      workflowId: `sweep-backlog-${newOrderId('run')}`,
      args: [input],
    });

  const exists = (workflowId: string) =>
    gw.rt.temporal.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        () => true,
        (e) => {
          if (e instanceof WorkflowNotFoundError) return false;
          throw e;
        },
      );

  /** Everything due in the shared store (other suites' too): runs of `limit` needed to visit all once. */
  async function runsToVisitAll(limit: number) {
    const db = gw.rt.store.db;
    const due =
      (await db.collection('transactions').countDocuments({ 'refunds.status': 'PENDING' })) +
      (await db.collection('mandates').countDocuments({ state: 'CREATED' }));
    return Math.ceil(due / limit) + 2;
  }

  it('heals an orphaned refund and mandate behind more waiting ones than a run reads, in a later run', async () => {
    const waiting = [];
    for (let i = 0; i < 5; i++) {
      waiting.push(await refundingOrder(minutesAgo(30 - i)));
      waiting.push(await createdMandate(minutesAgo(30 - i)));
    }
    // Younger than every waiting one: the oldest-first read of old never got past them.
    const orphanRefund = await refundingOrder(minutesAgo(5), true);
    const orphanMandate = await createdMandate(minutesAgo(5), true);
    // Sweep everything already due (other suites' too) once, as earlier runs would have.
    await sweep({ olderThanMs: 60_000, limit: 50, pages: 1_000 });
    const more = [await refundingOrder(minutesAgo(4), true), await createdMandate(minutesAgo(4), true)];

    const runs = await runsToVisitAll(2);
    for (let run = 0; run < runs && !((await exists(more[0]!)) && (await exists(more[1]!))); run++)
      await sweep({ olderThanMs: 60_000, limit: 2, pages: 1 });
    assert.ok(await exists(orphanRefund), 'the orphaned refund has its workflow');
    assert.ok(await exists(orphanMandate), 'the orphaned mandate has its workflow');
    assert.ok(await exists(more[0]!), 'the refund orphaned after the first sweep has its workflow');
    assert.ok(await exists(more[1]!), 'the mandate orphaned after the first sweep has its workflow');
    for (const id of waiting) assert.ok(await exists(id));
  });

  it('heals the others when one item cannot be healed, and leaves that one for its next turn', async () => {
    // An order Temporal refuses to start (its workflow id is over the server's 1,000 characters): of
    // old the sweep's activity failed on it every run, before anything behind it was healed.
    const poisoned = { merchantIdentifier: merchant.merchantIdentifier, orderId: `poisoned-${'x'.repeat(1_000)}` };
    const orphan = { merchantIdentifier: merchant.merchantIdentifier, orderId: newOrderId('orphan-payment') };
    for (const [order, at] of [
      [poisoned, minutesAgo(60 * 24 * 365)],
      [orphan, minutesAgo(5)],
    ] as const)
      await gw.rt.transactions.createPending({
        txnId: newTxnId(at),
        ...order,
        amountPaise: 5_000,
        productDescription: 'Sweep',
        buyerName: null,
        buyerEmail: null,
        ipAddress: null,
        instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox UPI Bank' },
        createdAt: at,
      });
    const workflowId = paymentWorkflowId(orphan.merchantIdentifier, orphan.orderId);
    started.push(workflowId);
    const result = await sweep({ olderThanMs: 60_000, limit: 500, pages: 1_000 });
    assert.ok((result.failed ?? 0) >= 1, JSON.stringify(result));
    assert.ok(await exists(workflowId), 'the orphan behind it has its workflow');
    assert.ok((await gw.rt.transactions.findByOrder(poisoned))?.sweptAt, 'swept: it waits for its next turn');
  });

  it('pages on within one run until everything due was visited', async () => {
    const orphans = [];
    for (let i = 0; i < 7; i++) orphans.push(await refundingOrder(minutesAgo(20 - i), i % 3 === 0));
    for (let i = 0; i < 7; i++) orphans.push(await createdMandate(minutesAgo(20 - i), i % 3 === 0));
    const result = await sweep({ olderThanMs: 60_000, limit: 2, pages: 1_000 });
    assert.ok(result.checked >= 14, `visited ${result.checked}`);
    for (const id of orphans) assert.ok(await exists(id), id);
  });
});
