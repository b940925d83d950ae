import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { BankPaymentRequest } from '../../src/bank/connector';
import { createMandateActivities } from '../../activities/mandate-activities';
import { createPaymentActivities } from '../../activities/payment-activities';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { loadConfig } from '../../src/config';
import type { MandateState } from '../../src/domain/mandate';
import { MandateRepository } from '../../src/store/mandate-repository';
import type { Merchant } from '../../src/domain/merchant';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { connectStore, type Store } from '../../src/store/mongo';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { notifyDebitUpdate } from '../../src/temporal/mandate-messages';
import { mandateDebitWorkflowId, mandateWorkflowId } from '../../src/temporal/workflow-ids';
import { createMandate, type MandateDeps } from '../../src/usecases/create-mandate';
import { provisionMerchant } from '../../src/usecases/provision-merchant';
import type { MandateWorkflowResult } from '../../src/temporal/mandate-contract';
import { istDate } from '../support/mandates';
import { testStore, timeSkippingEnvironment, workflowBundle } from '../support/servers';
import { RUN_MASTER_KEY } from '../support/gateway';

type Gate = { arrived: Promise<void>; release: () => void };

/**
 * A mandate's first debit fails (debitfail@sandbox) while a notify is under way: the notify's debit
 * is stored as the mandate becomes INACTIVE. Every interleaving of the two is played here, each
 * several times, with the real activities, store and sandbox bank, held at chosen points. The
 * mandate never fails a workflow task (a start and a cancel of one child in one task is what the
 * real server refuses; the time-skipping server takes both, so the history itself is checked), it
 * ends INACTIVE, the notify is answered, and its debit ends cancelled (1124) without reaching the bank.
 */
describe('a notify racing a failing first debit (time-skipping)', function () {
  this.timeout(180_000);
  let env: TestWorkflowEnvironment;
  let store: Store;
  let merchant: Merchant;
  let deps: MandateDeps;
  const taskQueue = `mandate-race-${randomBytes(3).toString('hex')}`;
  const gates = new Map<string, Gate & { reached: () => void; released: Promise<void> }>();
  const bankCalls: string[] = [];
  let stopActivities: () => Promise<void>;
  let stopWorkflows: () => Promise<void>;

  /** Holds the activity that passes `key` until released. */
  function hold(key: string): Gate {
    let reached!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((r) => (reached = r));
    const released = new Promise<void>((r) => (release = r));
    const gate = { arrived, reached, release, released };
    gates.set(key, gate);
    return gate;
  }
  async function pass(key: string): Promise<void> {
    const gate = gates.get(key);
    if (!gate) return;
    gate.reached();
    await gate.released;
  }

  async function startWorker(options: { activities?: object; workflows?: boolean }): Promise<() => Promise<void>> {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      ...(options.workflows ? { workflowBundle: await workflowBundle(), maxCachedWorkflows: 0 } : {}),
      ...(options.activities ? { activities: options.activities } : {}),
    });
    const run = worker.run();
    return async () => {
      worker.shutdown();
      await run;
    };
  }

  before(async () => {
    const s = await testStore();
    store = await connectStore(s.uri, s.dbName);
    env = await timeSkippingEnvironment();
    const config = loadConfig(
      { TEMPORAL_TASK_QUEUE: taskQueue, SANDBOX_MANDATE_PAYER_SECONDS: '0.1', LOG_LEVEL: 'silent' },
      { MASTER_KEY: RUN_MASTER_KEY, OPS_TOKEN: 'x'.repeat(32) },
    );
    const merchants = new MerchantRepository(store.db, config.secrets.masterKey, 0);
    merchant = (await merchants.findById(
      (await provisionMerchant(merchants, { name: 'Race Co' }, new Date())).merchantIdentifier,
    ))!;
    deps = {
      config,
      mandates: new MandateRepository(store.db, config.secrets.masterKey),
      transactions: new TransactionRepository(store.db, config.secrets.masterKey),
      temporal: env.client,
      now: () => new Date(),
      realtimeWebhook: false,
    };
    class HeldBank extends SandboxBankConnector {
      override async requestPayment(r: BankPaymentRequest) {
        bankCalls.push(r.txnId);
        // Held by the mandate a debit is under (only the first debit of each race gets there).
        await pass(`bank:${r.instrument.kind === 'UPI_MANDATE' ? r.instrument.mandateOrderId : r.txnId}`);
        return super.requestPayment(r);
      }
    }
    const activityDeps = {
      ...deps,
      merchants: new MerchantRepository(store.db, config.secrets.masterKey, 0),
      bank: new HeldBank(),
      taskQueue,
      webhookBatchWindowMs: 1000,
    };
    const real = { ...createMandateActivities(activityDeps), ...createPaymentActivities(activityDeps) };
    const activities = {
      ...real,
      async createMandateDebit(d: Parameters<typeof real.createMandateDebit>[0]) {
        const created = await real.createMandateDebit(d);
        await pass(`create:${d.orderId}`);
        return created;
      },
      async recordMandateState(i: Parameters<typeof real.recordMandateState>[0]) {
        await real.recordMandateState(i);
        await pass(`state:${i.orderId}:${i.state}`);
      },
    };
    stopActivities = await startWorker({ activities });
    stopWorkflows = await startWorker({ workflows: true });
  });
  after(async () => {
    await stopWorkflows?.();
    await stopActivities?.();
    await env?.teardown();
    await store?.close();
  });

  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 400; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const exists = (workflowId: string) => () =>
    env.client.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        () => true,
        () => false,
      );

  /** Which of the two the mandate sees first, and how. */
  type Order = 'same task' | 'debit stored and ended at once' | 'ended, then debit stored' | 'debit started, then ended';

  async function race(order: Order): Promise<void> {
    const orderId = `race-${randomBytes(4).toString('hex')}`;
    const serverNow = new Date(await env.currentTimeMs());
    const answer = await createMandate(deps, merchant, {
      orderId,
      amountPaise: 500_000,
      productDescription: 'Milk',
      mode: 'upiCollectMandate',
      payerVpa: 'debitfail@sandbox',
      config: {
        firstDebit: true,
        firstDebitAmount: 10_000,
        frequency: 'Adhoc',
        startDate: istDate(serverNow),
        endDate: istDate(serverNow, 365),
      },
    });
    assert.equal(answer.key, 'created');
    const firstDebit = hold(`bank:${orderId}`);
    const ended = hold(`state:${orderId}:INACTIVE`);
    const handle: WorkflowHandle = env.client.workflow.getHandle(mandateWorkflowId(merchant.merchantIdentifier, orderId));
    await firstDebit.arrived; // ACTIVE, its first debit at the bank

    const debitOrderId = `race-debit-${randomBytes(4).toString('hex')}`;
    const debitTxnId = `TXN${randomBytes(6).toString('hex')}`;
    const stored = hold(`create:${debitOrderId}`);
    const update = await handle.startUpdate(notifyDebitUpdate, {
      args: [
        {
          orderId: debitOrderId,
          txnId: debitTxnId,
          amountPaise: 25_000,
          productDescription: 'Milk, June',
          executeAtMs: serverNow.getTime() + 2 * 86_400_000,
          autoExecute: true,
        },
      ],
      updateId: `notify:${debitOrderId}`,
      waitForStage: 'ACCEPTED',
    });
    await stored.arrived; // the notify's debit is stored; its completion is held

    if (order === 'same task') {
      firstDebit.release();
      await ended.arrived; // INACTIVE is stored; its completion is held too
      // No workflow task runs while both completions reach the server: the next task has both.
      await stopWorkflows();
      stored.release();
      ended.release();
      await until('both completions', async () => ((await handle.describe()).raw.pendingActivities ?? []).length === 0);
      stopWorkflows = await startWorker({ workflows: true });
    } else if (order === 'debit stored and ended at once') {
      firstDebit.release();
      await ended.arrived;
      stored.release();
      ended.release();
    } else if (order === 'ended, then debit stored') {
      firstDebit.release();
      ended.release();
      await until('the end', async () => (await handle.query<MandateState>('mandateState')) === 'INACTIVE');
      stored.release();
    } else {
      stored.release();
      await until('the debit started', exists(mandateDebitWorkflowId(merchant.merchantIdentifier, debitOrderId)));
      firstDebit.release();
      ended.release();
    }

    const outcome = await Promise.race([
      handle.result() as Promise<MandateWorkflowResult>,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${order}: the mandate never ended`)), 20_000)),
    ]);
    assert.equal(outcome.state, 'INACTIVE', order);
    assert.deepEqual(await update.result(), { kind: 'notified' }, order);
    // The mandate asks a running debit to stop and may end before the debit has recorded it: wait for that record.
    const debitRef = { merchantIdentifier: merchant.merchantIdentifier, orderId: debitOrderId };
    await until(
      `${order}: the debit's end`,
      async () => (await deps.transactions.findByOrder(debitRef))?.status !== 'Pending',
    ).catch(() => undefined);
    const debit = await deps.transactions.findByOrder(debitRef);
    assert.deepEqual([debit?.status, debit?.responseCode], ['Failure', '1124'], `${order}: the debit is cancelled`);
    assert.ok(!bankCalls.some((t) => t.startsWith(debitTxnId)), `${order}: the debit never reached the bank`);
    const mandate = await deps.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId });
    assert.equal(mandate?.state, 'INACTIVE');
    await assertNoRefusedTask(handle, order);
  }

  /** No failed task, and no task that both starts and cancels one child (the real server refuses it). */
  async function assertNoRefusedTask(handle: WorkflowHandle, order: string) {
    const events = (await handle.fetchHistory()).events ?? [];
    assert.deepEqual(
      events.filter((e) => e.workflowTaskFailedEventAttributes).map((e) => e.workflowTaskFailedEventAttributes?.cause),
      [],
      `${order}: failed workflow tasks`,
    );
    const started = new Set(
      events.flatMap((e) => {
        const a = e.startChildWorkflowExecutionInitiatedEventAttributes;
        return a ? [`${a.workflowTaskCompletedEventId}:${a.workflowId}`] : [];
      }),
    );
    const cancelledInTheSameTask = events.flatMap((e) => {
      const a = e.requestCancelExternalWorkflowExecutionInitiatedEventAttributes;
      const key = a && `${a.workflowTaskCompletedEventId}:${a.workflowExecution?.workflowId}`;
      return key && started.has(key) ? [key] : [];
    });
    assert.deepEqual(cancelledInTheSameTask, [], `${order}: a child started and cancelled in one task`);
  }

  const orders: [Order, number][] = [
    ['same task', 3],
    ['debit stored and ended at once', 3],
    ['ended, then debit stored', 2],
    ['debit started, then ended', 2],
  ];
  for (const [order, times] of orders) {
    it(`${order}, ${times} times: INACTIVE, the notify answered, its debit cancelled unpaid, no task refused`, async () => {
      for (let i = 0; i < times; i++) await race(order);
    });
  }
});
