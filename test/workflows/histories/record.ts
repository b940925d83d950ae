/**
 * Records the workflow histories that test/workflows/replay.test.ts replays: run it on the code of
 * the build being released (`nice -n 19 node --import tsx test/workflows/histories/record.ts`), and
 * commit the JSON files it writes next to itself (docs/contributors/workflow-changes.md). Store and
 * webhook activities are fakes (a history holds only their results); the bank is the sandbox. The
 * file names say what each run did. Arguments name the scenarios to record by the start of their
 * names (e.g. `record.ts payment webhook-delivery`); none: all of them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { BankPaymentRequest, BankRefundRequest } from '../../../src/bank/connector';
import { SandboxBankConnector } from '../../../src/bank/sandbox-connector';
import { notifyDebitUpdate, revokeMandateUpdate } from '../../../src/temporal/mandate-messages';
import { bankAnswerSignal } from '../../../src/temporal/payment-messages';
import { mandateDebitWorkflowId } from '../../../src/temporal/workflow-ids';
import type { MandateDebitInput } from '../../../src/temporal/mandate-debit-contract';
import type { MandateWorkflowInput } from '../../../src/temporal/mandate-contract';
import type { PaymentWorkflowInput } from '../../../src/temporal/payment-contract';
import type { RefundWorkflowInput } from '../../../src/temporal/refund-contract';
import { lateUpdateSignal } from '../../../src/temporal/webhook-batch-contract';
import { temporalCliPath } from '../../../src/devstack/paths';
import { customSearchAttributes } from '../../../src/temporal/search-attributes';
import { timeSkippingEnvironment, workflowBundle } from '../../support/servers';

const MERCHANT = 'f'.repeat(32);
const taskQueue = 'record-histories';
const bank = new SandboxBankConnector();

/** Activities held until the recording lets them go (key -> release). */
const held = new Map<string, { reached: () => void; release: Promise<void>; go: () => void; arrived: Promise<void> }>();
function hold(key: string) {
  let reached!: () => void;
  let go!: () => void;
  const arrived = new Promise<void>((r) => (reached = r));
  const release = new Promise<void>((r) => (go = r));
  const h = { reached, release, go, arrived };
  held.set(key, h);
  return h;
}
async function passGate(key: string) {
  const h = held.get(key);
  if (!h) return;
  h.reached();
  await h.release;
}

/** recordPaymentOutcome and recordMandateDebitOutcome answer `applied` as this says per txnId. */
const lostCompletion = new Set<string>();

/** Scenarios to record: those whose name starts with an argument (all without arguments). */
const wanted = (name: string) => process.argv.length <= 2 || process.argv.slice(2).some((a) => name.startsWith(a));

/** Delivery ids whose first attempt (inline in the transaction's workflow) fails and hands over. */
const firstAttemptFails = new Set<string>();
/** What the fake receiver answers per delivery id and attempt number (absent: SUCCESS). */
const attemptOutcomes = new Map<
  string,
  Record<number, { acknowledged: boolean; endpointDisabled?: true; retryAfterMs?: number; superseded?: true }>
>();

/** Merchants whose held settlement the recording released (openSettlement answers open from then on). */
const settlementReleased = new Set<string>();
/** Merchants opted in to the settlement.processed webhook (recordSettlementPayout says so). */
const settlementWebhookOptedIn = new Set<string>();
/** Claim pages left (sales phase) per merchant, for a claim long enough to continue as new. */
const claimPagesLeft = new Map<string, number>();
/** PENDING inquiries left per merchant, for a payout wait long enough to continue as new. */
const pendingInquiriesLeft = new Map<string, number>();
/** Merchants held only once their settlement is totalled: open at the opening. */
const heldBeforePayout = new Set<string>();

const activities = {
  async requestBankPayment(r: BankPaymentRequest) {
    await passGate(`bank:${r.txnId}`);
    if (r.instrument.kind === 'UPI' && r.instrument.vpa === 'refused@sandbox')
      throw ApplicationFailure.nonRetryable('the bank refused the request with 400', 'BankRequestRefused');
    return bank.requestPayment(r);
  },
  async inquireBankPayment(i: { txnId: string }) {
    return bank.inquirePayment(i);
  },
  async recordPaymentOutcome(i: { txnId: string; answer: { approved: boolean } | null }) {
    return { status: i.answer?.approved ? 'Success' : 'Failure', applied: !lostCompletion.has(i.txnId) };
  },
  async deliverWebhookFirstAttempt(i: { deliveryId: string }) {
    return firstAttemptFails.has(i.deliveryId) ? { state: 'handed over', attempts: 1 } : { state: 'delivered', attempts: 1 };
  },
  async prepareRealtimeWebhook() {
    return {
      send: true,
      url: 'https://merchant.example/hooks?realtime=true',
      contentType: 'application/x-www-form-urlencoded',
      body: 'txnData=%7B%7D&checksum=00',
      scheduleMs: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      stored: { state: 'pending', attempts: 1 },
    };
  },
  async attemptWebhook(i: { deliveryId: string; attempt: number }) {
    return attemptOutcomes.get(i.deliveryId)?.[i.attempt] ?? { acknowledged: true };
  },
  async finishWebhook() {},
  async requestBankRefund(r: BankRefundRequest) {
    return bank.requestRefund(r);
  },
  async recordRefundOutcome(i: { answer: { approved: boolean } }) {
    const at = '2026-11-26T09:00:00.000Z';
    return i.answer.approved
      ? { applied: true, refundStatus: 'SUCCESS', txnStatus: 'Refund', completedAt: at }
      : { applied: true, refundStatus: 'FAILED', txnStatus: 'Success', completedAt: at };
  },
  async requestMandateApproval(i: { txnId: string; payerVpa: string }) {
    return bank.requestMandateApproval(i);
  },
  async notifyMandateDebit(i: { txnId: string; payerVpa: string }) {
    return bank.notifyMandateDebit(i);
  },
  async recordMandateState(i: { orderId: string; state: string }) {
    await passGate(`state:${i.orderId}:${i.state}`);
  },
  async createMandateDebit(d: { orderId: string }) {
    await passGate(`create:${d.orderId}`);
    return { ours: true };
  },
  async recordMandateDebitOutcome(i: { txnId: string; result: string }) {
    return { status: i.result === 'executed' ? 'Success' : 'Failure', applied: !lostCompletion.has(i.txnId) };
  },
  async reportRefundLate() {},
  async applyReconciliationBatch(i: { batch: number }) {
    return { applied: 3 - i.batch, changed: 3 - i.batch };
  },
  async finishReconciliation(i: { reconciliationId: string }) {
    return { reconciliationId: i.reconciliationId, state: 'done', rows: 5, applied: 5, unchanged: 0, rejected: 0 };
  },
  async ensureWorkflowsOfStalePayments() {
    return { checked: 3 };
  },
  // Every mandate stays ACTIVE here, and no debit is at the bank at its end.
  async requestMandateDebit(i: { request: BankPaymentRequest }) {
    await passGate(`bank:${i.request.txnId}`);
    return { kind: 'sent', reply: await bank.requestPayment(i.request) };
  },
  async awaitNoDebitAtBank() {},
  async startMandateDebit(input: MandateDebitInput) {
    await startDebitWorkflow(input);
  },
  async pendingMandateDebits(i: { orderIds: string[] }) {
    return i.orderIds;
  },
  // A settlement: held first, two pages of sales, a payout the bank answers PENDING then PAID.
  async openSettlement(i: { merchantIdentifier: string }) {
    const held = !settlementReleased.has(i.merchantIdentifier) && !heldBeforePayout.has(i.merchantIdentifier);
    return { state: held ? 'held' : 'open', netPaise: 0, utr: null };
  },
  async claimSettlementPage(i: { merchantIdentifier: string; phase: string; cursor: { at: string; ties: number } | null }) {
    const left = claimPagesLeft.get(i.merchantIdentifier);
    if (left !== undefined && i.phase === 'sales') {
      claimPagesLeft.set(i.merchantIdentifier, left - 1);
      return { lines: 1000, next: left > 1 ? { at: new Date(left).toISOString(), ties: 0 } : null };
    }
    const more = i.phase === 'sales' && i.cursor === null;
    return { lines: more ? 1000 : 3, next: more ? { at: new Date(0).toISOString(), ties: 1 } : null };
  },
  async totalSettlement() {
    return { state: 'open', netPaise: 987_654, utr: null, pay: true };
  },
  async requestSettlementPayoutUnlessHeld(i: { merchantIdentifier: string }) {
    if (!settlementReleased.has(i.merchantIdentifier)) return { held: true };
    return {
      held: false,
      answer: { status: 'PENDING', utr: null, responseCode: '09', responseDescription: 'Payout in progress' },
    };
  },
  async inquireSettlementPayout(i: { merchantIdentifier: string }) {
    const left = pendingInquiriesLeft.get(i.merchantIdentifier) ?? 0;
    if (left > 0) {
      pendingInquiriesLeft.set(i.merchantIdentifier, left - 1);
      return { status: 'PENDING', utr: null, responseCode: '09', responseDescription: 'Payout in progress' };
    }
    return { status: 'PAID', utr: 'SIMU000000000001', responseCode: '00', responseDescription: 'Paid' };
  },
  async recordSettlementPayout(i: { merchantIdentifier: string }) {
    const optedIn = settlementWebhookOptedIn.has(i.merchantIdentifier);
    return { state: 'paid', netPaise: 987_654, utr: 'SIMU000000000001', ...(optedIn ? { processedWebhook: true } : {}) };
  },
  // The daily run: a page of merchants, each started by an activity of its own.
  async settlementRunDate(i: { settlementDate?: string }) {
    return { settlementDate: i.settlementDate ?? '2026-11-03', workingDay: true };
  },
  async settlementMerchantsPage(i: { after: string | null }) {
    return i.after === null ? { merchants: ['m1', 'broken', 'm2'], next: null } : { merchants: [], next: null };
  },
  async startMerchantSettlement(i: { merchantIdentifier: string }) {
    if (i.merchantIdentifier === 'broken')
      throw ApplicationFailure.nonRetryable("Cannot read properties of null (reading 'forEach')", 'TypeError');
    return i.merchantIdentifier === 'm1' ? 'started' : 'already_started';
  },
  async cancelMandateDebits(i: { merchantIdentifier: string; orderIds: string[] }) {
    for (const orderId of i.orderIds) await cancelDebitWorkflow(mandateDebitWorkflowId(i.merchantIdentifier, orderId));
  },
};
/** The recording's client, for the activities that start and cancel debit workflows. */
let startDebitWorkflow: (input: MandateDebitInput) => Promise<void> = async () => undefined;
let cancelDebitWorkflow: (workflowId: string) => Promise<void> = async () => undefined;

/** Runs the scenarios of one server kind on `env` and writes their histories. */
async function recordOn(env: TestWorkflowEnvironment, server: 'time-skipping' | 'dev') {
  // Activities and workflows on workers of their own, so workflow tasks can be held back while
  // activities complete (two completions then arrive in one workflow task).
  const activityWorker = await Worker.create({ connection: env.nativeConnection, taskQueue, activities });
  const activitiesRun = activityWorker.run();
  const bundle = await workflowBundle();
  const workflowWorker = async () => {
    // No sticky queue: a stopped worker's sticky tasks would wait out a timeout (which the locked test server never reaches).
    const w = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: bundle, maxCachedWorkflows: 0 });
    const run = w.run();
    return async () => {
      w.shutdown();
      await run;
    };
  };
  let stopWorkflows = await workflowWorker();
  const id = () => randomBytes(4).toString('hex');
  startDebitWorkflow = async (input) => {
    await env.client.workflow.start('mandateDebitWorkflow', {
      workflowId: mandateDebitWorkflowId(input.merchantIdentifier, input.orderId),
      taskQueue,
      args: [input],
    });
  };
  cancelDebitWorkflow = (workflowId) =>
    env.client.workflow
      .getHandle(workflowId)
      .cancel()
      .then(() => undefined);
  const save = async (name: string, workflowId: string, runId?: string) => {
    const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const History = temporal.api.history.v1.History;
    const json = History.toObject(History.fromObject(history), { longs: String, enums: String, bytes: String });
    writeFileSync(path.join(__dirname, `${name}.json`), `${JSON.stringify(json, null, 1)}\n`);
    console.log(`recorded ${name} (${history.events?.length} events)`);
  };

  /** A delivery workflow as a failed first attempt hands it over: from attempt 2, answered per attempt as given. */
  const handedOverDelivery = async (
    name: string,
    outcomes: Record<number, { acknowledged: boolean; endpointDisabled?: true; retryAfterMs?: number; superseded?: true }>,
    retryAfterMs?: number,
    o: { waitedBeforeStart?: true } = {},
  ) => {
    if (!wanted(name)) return;
    const orderId = `order-${id()}`;
    const deliveryId = `rt:${MERCHANT}:${orderId}`;
    attemptOutcomes.set(deliveryId, outcomes);
    const workflowId = `webhook:${deliveryId}`;
    // Its attempts are local activities: a worker of its own runs them beside the workflow (cached, as in production).
    const deliveryQueue = `${taskQueue}-webhook-delivery`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: deliveryQueue,
      workflowBundle: bundle,
      activities,
    });
    const execution = env.client.workflow.execute('webhookDeliveryWorkflow', {
      workflowId,
      taskQueue: deliveryQueue,
      args: [
        { deliveryId, merchantIdentifier: MERCHANT, orderId, fromAttempt: 2, ...(retryAfterMs ? { retryAfterMs } : {}), ...o },
      ],
    });
    console.log(name, await worker.runUntil(execution));
    await save(name, workflowId);
  };

  /**
   * A payment: its bank request, outcome and first webhook attempt are local activities, run in the
   * worker of its workflow task (a cached worker of its own holding the activities, as in
   * production). `signalAnswer`: a late answer sent as the bankAnswer signal right after the start.
   */
  const payment = async (
    name: string,
    lost: boolean,
    webhook?: 'first attempt fails',
    o: { vpa?: string; signalAnswer?: true } = {},
  ) => {
    if (!wanted(name)) return;
    const txnId = `TXN${id()}`;
    if (lost) lostCompletion.add(txnId);
    const orderId = `order-${id()}`;
    const input: PaymentWorkflowInput = {
      txnId,
      merchantIdentifier: MERCHANT,
      orderId,
      amountPaise: 10_000,
      instrument: { kind: 'UPI', vpa: o.vpa ?? 'success@sandbox' } as PaymentWorkflowInput['instrument'],
      bankTimeoutMs: 900_000,
    };
    if (webhook) firstAttemptFails.add(`rt:${MERCHANT}:${orderId}`);
    const queue = `${taskQueue}-payment`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: queue,
      workflowBundle: bundle,
      activities,
    });
    const workflowId = `payment:${MERCHANT}:${orderId}`;
    const handle = await env.client.workflow.start('paymentWorkflow', { workflowId, taskQueue: queue, args: [input] });
    if (o.signalAnswer)
      await handle.signal(bankAnswerSignal, { approved: true, response: 'success', bankRefNum: '123456789012', authCode: '1' });
    console.log(name, await worker.runUntil(handle.result()));
    await save(name, workflowId);
  };

  const debit = async (name: string, lost: boolean) => {
    if (!wanted(name)) return;
    const txnId = `TXN${id()}`;
    if (lost) lostCompletion.add(txnId);
    const input: MandateDebitInput = {
      merchantIdentifier: MERCHANT,
      mandateOrderId: `mandate-${id()}`,
      orderId: `debit-${id()}`,
      txnId,
      amountPaise: 25_000,
      payerVpa: 'success@sandbox',
      executeAtMs: Date.now(),
      autoExecute: true,
      maxRetries: 0,
      retryIntervalMs: 3_600_000,
      customerInitiated: true,
    };
    const workflowId = mandateDebitWorkflowId(MERCHANT, input.orderId);
    await env.client.workflow.execute('mandateDebitWorkflow', { workflowId, taskQueue, args: [input] });
    await save(name, workflowId);
  };

  // Server time: waiting for results skips it far ahead of the wall clock.
  let serverNow = 0;
  const mandateInput = (payerVpa: string, firstDebit: boolean): MandateWorkflowInput => {
    const orderId = `mandate-${id()}`;
    const txnId = `TXN${id()}`;
    return {
      merchantIdentifier: MERCHANT,
      orderId,
      txnId,
      payerVpa,
      frequency: 'Adhoc',
      validUntilMs: serverNow + 365 * 86_400_000,
      productDescription: 'Milk',
      firstDebit: firstDebit ? { orderId: `${orderId}-first`, txnId: `${txnId}F`, amountPaise: 10_000 } : null,
      payerAnswerDelayMs: 1_000,
      debitRetryIntervalMs: 3_600_000,
    };
  };
  const notifyRequest = () => ({
    orderId: `debit-${id()}`,
    txnId: `TXN${id()}`,
    amountPaise: 25_000,
    productDescription: 'Milk, June',
    executeAtMs: serverNow + 2 * 86_400_000,
    autoExecute: true,
  });
  const waitFor = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 400; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('timed out');
  };
  const started = (workflowId: string) => () =>
    env.client.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        () => true,
        () => false,
      );

  /** A first debit that fails while a notify is under way; `notifyFirst`: its debit starts before the end. */
  const firstDebitFailsDuringNotify = async (name: string, notifyFirst: boolean) => {
    if (!wanted(name)) return;
    serverNow = await env.currentTimeMs();
    const input = mandateInput('debitfail@sandbox', true);
    const bankGate = hold(`bank:${input.firstDebit!.txnId}`);
    const handle = await env.client.workflow.start('mandateWorkflow', {
      workflowId: `mandate:${MERCHANT}:${input.orderId}`,
      taskQueue,
      args: [input],
    });
    await bankGate.arrived;
    const request = notifyRequest();
    const createGate = hold(`create:${request.orderId}`);
    const update = handle.startUpdate(notifyDebitUpdate, {
      args: [request],
      updateId: `notify:${request.orderId}`,
      waitForStage: 'ACCEPTED',
    });
    await createGate.arrived;
    if (notifyFirst) {
      createGate.go();
      await waitFor(started(mandateDebitWorkflowId(MERCHANT, request.orderId)));
      bankGate.go();
    } else {
      bankGate.go();
      // The end has recorded INACTIVE and asked its (no) running debits to stop before the debit is stored.
      await waitFor(async () => (await handle.query<string>('mandateState')) === 'INACTIVE');
      await new Promise((r) => setTimeout(r, 500));
      createGate.go();
    }
    await (await update).result().catch((e: unknown) => console.log('update', String(e), (e as Error).cause));
    await handle.result();
    await save(name, handle.workflowId);
  };

  const revokedWithDebit = async (name: string, firstDebit: boolean) => {
    if (!wanted(name)) return;
    serverNow = await env.currentTimeMs();
    const input = mandateInput('success@sandbox', firstDebit);
    const handle = await env.client.workflow.start('mandateWorkflow', {
      workflowId: `mandate:${MERCHANT}:${input.orderId}`,
      taskQueue,
      args: [input],
    });
    await waitFor(async () => (await handle.query<string>('mandateState')) === 'ACTIVE');
    if (firstDebit) {
      const first = mandateDebitWorkflowId(MERCHANT, input.firstDebit!.orderId);
      await waitFor(started(first));
      await env.client.workflow.getHandle(first).result();
    }
    const request = notifyRequest();
    await handle.executeUpdate(notifyDebitUpdate, { args: [request], updateId: `notify:${request.orderId}` });
    await handle.executeUpdate(revokeMandateUpdate);
    await handle.result();
    await save(name, handle.workflowId);
  };

  /**
   * A mandate whose run continues as new after two updates, with a debit carried
   * over, revoked in the next run (debits started by an activity, cancelled by one at the end).
   */
  const longLivedRevoked = async (name: string) => {
    if (!wanted(name)) return;
    serverNow = await env.currentTimeMs();
    const input = { ...mandateInput('success@sandbox', false), updatesPerRun: 2 };
    const handle = await env.client.workflow.start('mandateWorkflow', {
      workflowId: `mandate:${MERCHANT}:${input.orderId}`,
      taskQueue,
      args: [input],
    });
    const firstRun = handle.firstExecutionRunId;
    await waitFor(async () => (await handle.query<string>('mandateState')) === 'ACTIVE');
    for (let i = 0; i < 3; i++) {
      const request = notifyRequest();
      for (;;) {
        const refused = await env.client.workflow
          .getHandle(handle.workflowId)
          .executeUpdate(notifyDebitUpdate, { args: [request], updateId: `notify:${request.orderId}` })
          .then(
            () => false,
            (e: unknown) => String((e as Error).cause).includes('continuing as new'),
          );
        if (!refused) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const latest = env.client.workflow.getHandle(handle.workflowId);
    await latest.executeUpdate(revokeMandateUpdate);
    await latest.result();
    await save(`${name}-first-run`, handle.workflowId, firstRun);
    await save(`${name}-last-run`, handle.workflowId);
  };

  /**
   * A race: the notify's debit is stored and INACTIVE is recorded while no workflow
   * task runs, so both completions reach the mandate in one task (start and cancel of one child).
   */
  const firstDebitFailsInTheSameTaskAsNotify = async (name: string) => {
    if (!wanted(name)) return;
    serverNow = await env.currentTimeMs();
    const input = mandateInput('debitfail@sandbox', true);
    const bankGate = hold(`bank:${input.firstDebit!.txnId}`);
    const stateGate = hold(`state:${input.orderId}:INACTIVE`);
    const handle = await env.client.workflow.start('mandateWorkflow', {
      workflowId: `mandate:${MERCHANT}:${input.orderId}`,
      taskQueue,
      args: [input],
    });
    await bankGate.arrived;
    const request = notifyRequest();
    const createGate = hold(`create:${request.orderId}`);
    await handle.startUpdate(notifyDebitUpdate, {
      args: [request],
      updateId: `notify:${request.orderId}`,
      waitForStage: 'ACCEPTED',
    });
    await createGate.arrived;
    bankGate.go();
    await stateGate.arrived;
    await stopWorkflows();
    createGate.go();
    stateGate.go();
    await waitFor(async () => ((await handle.describe()).raw.pendingActivities ?? []).length === 0);
    stopWorkflows = await workflowWorker();
    const settled = async () => {
      const events = (await handle.fetchHistory()).events ?? [];
      return events.some((e) => e.workflowTaskFailedEventAttributes || e.workflowExecutionCompletedEventAttributes);
    };
    await waitFor(settled).catch(() => console.log(`${name}: neither failed nor completed`));
    await save(name, handle.workflowId);
  };

  const refund = async (name: string, reportLate: boolean) => {
    if (!wanted(name)) return;
    const orderId = `order-${id()}`;
    const input: RefundWorkflowInput = {
      merchantIdentifier: MERCHANT,
      orderId,
      txnId: `TXN${id()}`,
      bankRefNum: 'BRN000000001',
      merchantRefId: reportLate ? 'auto-refund' : 'refund-1',
      amountPaise: 10_000,
      reason: 'customer request',
      ...(reportLate ? { reportLate } : {}),
    };
    const workflowId = `refund:${MERCHANT}:${orderId}:${input.merchantRefId}`;
    await env.client.workflow.execute('refundWorkflow', { workflowId, taskQueue, args: [input] });
    await save(name, workflowId);
  };

  const reconciliation = async (name: string) => {
    if (!wanted(name)) return;
    const workflowId = `reconciliation:rc-${id()}`;
    await env.client.workflow.execute('reconciliationWorkflow', {
      workflowId,
      taskQueue,
      args: [{ reconciliationId: workflowId.slice('reconciliation:'.length), batches: 2 }],
    });
    await save(name, workflowId);
  };

  /** 12 late updates signalled at once: gathered for the window, cut into calls of 10 and 2, then idle until it ends. */
  const lateUpdates = async (name: string) => {
    if (!wanted(name)) return;
    const workflowId = `webhook-batch:${MERCHANT}-${id()}`;
    const update = (i: number) => ({
      kind: 'txn' as const,
      orderId: `order-${i}`,
      amountPaise: 10_000,
      at: new Date(0).toISOString(),
    });
    const handle = await env.client.workflow.signalWithStart('webhookBatchWorkflow', {
      workflowId,
      taskQueue,
      args: [{ merchantIdentifier: MERCHANT, windowMs: 60_000 }],
      signal: lateUpdateSignal,
      signalArgs: [update(0)],
    });
    for (let i = 1; i < 12; i++) await handle.signal(lateUpdateSignal, update(i));
    await handle.result();
    await save(name, workflowId);
  };

  const sweep = async (name: string) => {
    if (!wanted(name)) return;
    const workflowId = `sweep-${id()}`;
    await env.client.workflow.execute('pendingPaymentsSweepWorkflow', {
      workflowId,
      taskQueue,
      args: [{ olderThanMs: 60_000, limit: 500 }],
    });
    await save(name, workflowId);
  };

  /** A settlement held (at its opening, or before its payout) then released, two claim pages, its payout PENDING then PAID (asked again after 10 minutes); optionally its settlement.processed webhook. */
  const settlement = async (name: string, o: { processedWebhook?: true; heldBeforePayout?: true } = {}) => {
    if (!wanted(name)) return;
    const merchantIdentifier = `m${id()}`;
    if (o.processedWebhook) settlementWebhookOptedIn.add(merchantIdentifier);
    if (o.heldBeforePayout) heldBeforePayout.add(merchantIdentifier);
    const workflowId = `settlement:${merchantIdentifier}:2026-11-03`;
    const handle = await env.client.workflow.start('settlementWorkflow', {
      workflowId,
      taskQueue,
      args: [{ merchantIdentifier, settlementDate: '2026-11-03' }],
    });
    while ((await handle.query<string>('settlementState')) !== 'held') await new Promise((r) => setTimeout(r, 100));
    settlementReleased.add(merchantIdentifier);
    await handle.signal('releaseSettlement');
    await handle.result();
    await save(name, workflowId);
  };

  /**
   * A settlement never held whose claim (`claimPages` sales pages) or payout wait
   * (`pendingInquiries` PENDING answers) is long enough to continue as new; its first and last runs are saved.
   */
  const settlementContinued = async (name: string, o: { claimPages?: number; pendingInquiries?: number }) => {
    if (!wanted(name)) return;
    const merchantIdentifier = `m${id()}`;
    settlementReleased.add(merchantIdentifier);
    if (o.claimPages) claimPagesLeft.set(merchantIdentifier, o.claimPages);
    if (o.pendingInquiries) pendingInquiriesLeft.set(merchantIdentifier, o.pendingInquiries);
    const workflowId = `settlement:${merchantIdentifier}:2026-11-03`;
    const handle = await env.client.workflow.start('settlementWorkflow', {
      workflowId,
      taskQueue,
      args: [{ merchantIdentifier, settlementDate: '2026-11-03' }],
    });
    await handle.result();
    await save(`${name}-first-run`, workflowId, handle.firstExecutionRunId);
    await save(`${name}-last-run`, workflowId);
  };

  /** The daily starter of a date (its settlements are started by activities, faked here). */
  const settlementDay = async (name: string) => {
    if (!wanted(name)) return;
    const workflowId = `settlement-day:${id()}`;
    await env.client.workflow.execute('settlementDayWorkflow', {
      workflowId,
      taskQueue,
      args: [{ settlementDate: '2026-11-03' }],
    });
    await save(name, workflowId);
  };

  /** A refund the bank fails, handed to the merchant's webhook. */
  const refundFailing = async (name: string, reason: string) => {
    if (!wanted(name)) return;
    const input: RefundWorkflowInput = {
      merchantIdentifier: MERCHANT,
      orderId: `order-${id()}`,
      txnId: `TXN${id()}`,
      bankRefNum: '123456789012',
      merchantRefId: 'r-1',
      amountPaise: 2500,
      reason,
    };
    const handle = await env.client.workflow.start('refundWorkflow', {
      workflowId: `refund:${MERCHANT}:${input.orderId}:${input.merchantRefId}`,
      taskQueue,
      args: [input],
    });
    await handle.result();
    await save(name, handle.workflowId);
  };

  if (server === 'dev') {
    // Only a real server refuses the start and the cancel of one child in one task (the test server takes both).
    await firstDebitFailsInTheSameTaskAsNotify('mandate-first-debit-fails-in-the-same-task-as-notify');
  } else {
    await payment('payment-applied', false);
    await payment('payment-completion-lost', true);
    await payment('payment-bank-refused-request', false, undefined, { vpa: 'refused@sandbox' });
    await payment('payment-silent-bank-status-inquiry', false, undefined, { vpa: 'noanswer@sandbox' });
    await payment('payment-late-answer-by-signal', false, undefined, { vpa: 'noanswer@sandbox', signalAnswer: true });
    await payment('payment-webhook-first-attempt-delivered-inline', false);
    await payment('payment-webhook-first-attempt-failed-handed-over', false, 'first attempt fails');
    await debit('mandate-debit-applied', false);
    await debit('mandate-debit-completion-lost', true);
    await longLivedRevoked('mandate-long-lived-continued-as-new-then-revoked');
    await firstDebitFailsDuringNotify('mandate-first-debit-fails-after-notify-started-debit', true);
    await firstDebitFailsDuringNotify('mandate-first-debit-fails-before-notify-stored-debit', false);
    await revokedWithDebit('mandate-revoked-with-debit', false);
    await revokedWithDebit('mandate-first-debit-then-revoked-with-debit', true);
    // Delivery workflows going on from attempt 2 (Retry-After, endpoint health, a start delay as the first wait).
    await handedOverDelivery(
      'webhook-delivery-handed-over-retry-after-then-delivered',
      { 2: { acknowledged: false, retryAfterMs: 60_000 } },
      2_000,
    );
    await handedOverDelivery('webhook-delivery-handed-over-disables-endpoint', {
      2: { acknowledged: false },
      3: { acknowledged: false, endpointDisabled: true },
    });
    await handedOverDelivery('webhook-delivery-handed-over-superseded-by-a-later-outcome', {
      2: { acknowledged: false },
      3: { acknowledged: false, superseded: true },
    });
    await handedOverDelivery('webhook-delivery-waited-before-start-then-retried', { 2: { acknowledged: false } }, undefined, {
      waitedBeforeStart: true,
    });
    await refundFailing('refund-failed-outcome-webhook', 'sandbox fail');
    await refund('refund-succeeded', false);
    await refund('refund-auto-succeeded-reported-late', true);
    await reconciliation('reconciliation-two-batches');
    await lateUpdates('webhook-batch-late-updates-cut-into-calls');
    await sweep('sweep-pending-payments');
    await settlement('settlement-held-released-payout-pending-then-paid');
    await settlement('settlement-paid-processed-webhook-delivered', { processedWebhook: true });
    await settlement('settlement-held-before-payout-released-payout-pending-then-paid', { heldBeforePayout: true });
    // Three merchants started one by one, one of them failing.
    await settlementDay('settlement-day-per-merchant-one-failed');
    await settlementContinued('settlement-claim-continued-as-new', { claimPages: 501 });
    await settlementContinued('settlement-payout-pending-continued-as-new', { pendingInquiries: 150 });
  }
  await stopWorkflows();
  activityWorker.shutdown();
  await activitiesRun;
}

async function main() {
  const timeSkipping = await timeSkippingEnvironment();
  await recordOn(timeSkipping, 'time-skipping');
  await timeSkipping.teardown();
  if (!wanted('mandate-first-debit-fails-in-the-same-task-as-notify')) return;
  const dev = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalCliPath },
      ip: '127.0.0.1',
      ui: false,
      searchAttributes: customSearchAttributes,
    },
  });
  await recordOn(dev, 'dev');
  await dev.teardown();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
