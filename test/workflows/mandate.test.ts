import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import type { BankPaymentRequest } from '../../src/bank/connector';
import { createMandateActivities } from '../../activities/mandate-activities';
import { createPaymentActivities } from '../../activities/payment-activities';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { loadConfig, type Config } from '../../src/config';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MandateState } from '../../src/domain/mandate';
import { isInPeakWindow } from '../../src/domain/peak-windows';
import { MandateRepository } from '../../src/store/mandate-repository';
import type { Merchant } from '../../src/domain/merchant';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { connectStore, type Store } from '../../src/store/mongo';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { revokeMandateUpdate, confirmDebitUpdate, mandateDebitStageQuery } from '../../src/temporal/mandate-messages';
import { mandateDebitWorkflowId, mandateWorkflowId } from '../../src/temporal/workflow-ids';
import { confirmMandateDebit } from '../../src/usecases/confirm-mandate-debit';
import { createMandate, type MandateDeps } from '../../src/usecases/create-mandate';
import { notifyMandate } from '../../src/usecases/notify-mandate';
import { provisionMerchant } from '../../src/usecases/provision-merchant';
import type { MandateDebitOutcome } from '../../src/temporal/mandate-debit-contract';
import { istAt, istDate } from '../support/mandates';
import { testStore, timeSkippingEnvironment, workflowBundle } from '../support/servers';
import { RUN_MASTER_KEY } from '../support/gateway';

/**
 * Mandates on the time-skipping server: days pass in milliseconds. The activities, store and
 * sandbox bank are the real ones; the bank is wrapped to note when (in server time) each debit
 * reached it. The API's use cases run with the server's time as their clock.
 */
describe('mandate and mandate-debit workflows (time-skipping)', function () {
  this.timeout(180_000);
  let env: TestWorkflowEnvironment;
  let store: Store;
  let merchant: Merchant;
  let deps: MandateDeps;
  let config: Config;
  let clock = new Date();
  const taskQueue = `mandates-${randomBytes(3).toString('hex')}`;
  const bankCalls: { txnId: string; at: Date }[] = [];

  class NotingBank extends SandboxBankConnector {
    override async requestPayment(request: BankPaymentRequest) {
      // The server's time when the attempt was scheduled (asking the test server here could deadlock a skip).
      bankCalls.push({ txnId: request.txnId, at: new Date(Context.current().info.currentAttemptScheduledTimestampMs) });
      return super.requestPayment(request);
    }
  }

  before(async () => {
    const s = await testStore();
    store = await connectStore(s.uri, s.dbName);
    config = loadConfig(
      {
        TEMPORAL_TASK_QUEUE: taskQueue,
        SANDBOX_MANDATE_PAYER_SECONDS: '1',
        MANDATE_DEBIT_RETRY_MINUTES: '60',
        LOG_LEVEL: 'silent',
      },
      { MASTER_KEY: RUN_MASTER_KEY, OPS_TOKEN: 'x'.repeat(32) },
    );
    const merchants = new MerchantRepository(store.db, config.secrets.masterKey, 0);
    const credentials = await provisionMerchant(merchants, { name: 'Milk Co' }, new Date());
    merchant = (await merchants.findById(credentials.merchantIdentifier))!;
  });
  after(() => store?.close());

  // A server of its own per test: timers other tests left behind never fire in the middle of one.
  beforeEach(async () => {
    env = await timeSkippingEnvironment();
    bankCalls.length = 0;
    deps = {
      config,
      mandates: new MandateRepository(store.db, config.secrets.masterKey),
      transactions: new TransactionRepository(store.db, config.secrets.masterKey),
      temporal: env.client,
      now: () => clock,
      realtimeWebhook: false,
    };
  });
  afterEach(() => env?.teardown());

  async function withWorker<T>(fn: () => Promise<T>): Promise<T> {
    const bank = new NotingBank();
    const activityDeps = {
      mandates: deps.mandates,
      transactions: deps.transactions,
      merchants: new MerchantRepository(store.db, config.secrets.masterKey, 0),
      bank,
      // The server's time (of the attempt): the peak-window check of a debit attempt reads it.
      now: () => new Date(Context.current().info.currentAttemptScheduledTimestampMs),
      temporal: env.client,
      taskQueue,
      webhookBatchWindowMs: 1000,
    };
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      // No sticky queue: each test stops its worker, and a task left on a stopped worker's sticky
      // queue waits out a timeout that the time-skipping server, locked while the task is out, never
      // reaches. Every task replays the history instead, which is what a restart does anyway.
      maxCachedWorkflows: 0,
      activities: { ...createMandateActivities(activityDeps), ...createPaymentActivities(activityDeps) },
    });
    return worker.runUntil(fn);
  }

  /** Moves server time forward to `at` and sets the use cases' clock to it. */
  async function skipTo(at: Date): Promise<void> {
    const now = await env.currentTimeMs();
    assert.ok(at.getTime() >= now, `cannot go back to ${at.toISOString()}`);
    if (at.getTime() > now) await env.sleep(at.getTime() - now);
    clock = at;
  }
  const serverNow = async () => new Date(await env.currentTimeMs());
  const newId = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

  /** Creates a mandate at the current server time and lets the sandbox payer answer. */
  async function mandate(
    o: { payer?: string; firstDebitAmount?: number; endInDays?: number } = {},
  ): Promise<{ orderId: string; state: MandateState }> {
    const orderId = newId('mandate');
    const answer = await createMandate(deps, merchant, {
      orderId,
      amountPaise: 500_000,
      productDescription: 'Milk',
      mode: 'upiCollectMandate',
      payerVpa: o.payer ?? 'success@sandbox',
      config: {
        firstDebit: o.firstDebitAmount !== undefined,
        ...(o.firstDebitAmount !== undefined ? { firstDebitAmount: o.firstDebitAmount } : {}),
        frequency: 'Adhoc',
        startDate: istDate(clock),
        endDate: istDate(clock, o.endInDays ?? 365),
      },
    });
    assert.equal(answer.key, 'created');
    await env.sleep(1_000); // the sandbox payer answers after a second
    for (let i = 0; i < 200; i++) {
      // The store, as the API reads it (the workflow's own state moves a moment before it is written).
      const state = (await deps.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }))!.state;
      const firstDebitDone = o.firstDebitAmount === undefined || state !== 'ACTIVE';
      if (state !== 'CREATED' && firstDebitDone) return { orderId, state };
      if (state === 'ACTIVE') await env.sleep(1_000);
      else await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the mandate never settled');
  }

  const notify = (parent: string, executionDate: string, o: { autoExecute?: boolean; orderId?: string } = {}) => {
    const orderId = o.orderId ?? newId('debit');
    return notifyMandate(deps, merchant, {
      orderId,
      amountPaise: 25_000,
      productDescription: 'Milk, June',
      mandateParentOrderId: parent,
      executionDate,
      autoExecute: o.autoExecute ?? true,
    }).then((a) => ({ ...a, orderId }));
  };
  const debitHandle = (orderId: string) =>
    env.client.workflow.getHandle(mandateDebitWorkflowId(merchant.merchantIdentifier, orderId));
  const debitResult = (orderId: string) => debitHandle(orderId).result() as Promise<MandateDebitOutcome>;
  const txnOf = (orderId: string) => deps.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId });
  const callsFor = async (orderId: string) => {
    const txnId = (await txnOf(orderId))!.txnId;
    return bankCalls.filter((c) => c.txnId.startsWith(txnId));
  };

  it('notify, then the debit runs exactly once 24 hours later, recorded 1111', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const { orderId: parent } = await mandate();
      clock = await serverNow();
      // executionDate has whole seconds: the first whole second at least 24 hours ahead.
      const executeAt = new Date(Math.ceil((clock.getTime() + 24 * 3_600_000) / 1000) * 1000);
      const n = await notify(parent, formatIstDateTime(executeAt));
      assert.equal(n.key, 'notified');
      assert.equal((await txnOf(n.orderId))?.status, 'Pending');
      const outcome = await debitResult(n.orderId);
      assert.deepEqual(outcome, { result: 'executed', status: 'Success', attempts: 1 });
      const calls = await callsFor(n.orderId);
      assert.equal(calls.length, 1);
      // The durable timer fired at executionDate (to the second: executionDate carries no milliseconds).
      assert.ok(
        Math.abs(calls[0]!.at.getTime() - Math.floor(executeAt.getTime() / 1000) * 1000) < 1000,
        calls[0]!.at.toISOString(),
      );
      const txn = await txnOf(n.orderId);
      assert.deepEqual([txn?.status, txn?.responseCode], ['Success', '1111']);
    });
  });

  it('refuses a notify 23 h 59 m ahead (1116) and takes one exactly 24 h ahead', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const { orderId: parent } = await mandate();
      await skipTo(istAt(await serverNow(), 0, '08:30:00'));
      assert.equal((await notify(parent, `${istDate(clock, 1)} 08:29:00`)).key, 'leadTimeTooShort');
      assert.equal((await notify(parent, `${istDate(clock, 1)} 08:30:00`)).key, 'notified');
    });
  });

  it('every peak boundary, as executionDate and as the time of the request', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '07:00:00'));
      const { orderId: parent } = await mandate();
      const boundaries: [string, boolean][] = [
        ['09:59:59', true],
        ['10:00:00', false],
        ['12:59:59', false],
        ['13:00:00', true],
        ['17:00:00', false],
        ['21:29:59', false],
        ['21:30:00', true],
      ];
      for (const [time, allowed] of boundaries) {
        const n = await notify(parent, `${istDate(clock, 2)} ${time}`);
        assert.equal(n.key, allowed ? 'notified' : 'peakTime', `executionDate ${time}`);
      }
      // Each on a day of its own: the server's clock runs at wall-clock pace between skips, so a
      // boundary one second after the last would already be behind it on a loaded machine.
      for (const [time, allowed] of boundaries) {
        await skipTo(istAt(clock, 1, time));
        assert.equal(isInPeakWindow(clock), !allowed);
        const n = await notify(parent, `${istDate(clock, 3)} 08:00:00`);
        assert.equal(n.key, allowed ? 'notified' : 'peakTime', `request at ${time}`);
      }
    });
  });

  it('a failed first debit makes the mandate INACTIVE, and a later notify is refused with 1117', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const { orderId, state } = await mandate({ payer: 'debitfail@sandbox', firstDebitAmount: 10_000 });
      assert.equal(state, 'INACTIVE');
      const first = await txnOf(`${orderId}-first`);
      assert.deepEqual([first?.status, first?.responseCode], ['Failure', '1112']);
      assert.equal((await callsFor(`${orderId}-first`)).length, 1, 'the first debit is not retried');
      assert.equal((await notify(orderId, `${istDate(clock, 2)} 08:00:00`)).key, 'inactive');
    });
  });

  it('a retry that falls into a peak window waits for it to end; one attempt plus 3 retries, then 1112', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const { orderId: parent } = await mandate({ payer: 'debitfail@sandbox' });
      const n = await notify(parent, `${istDate(clock, 2)} 09:30:00`);
      assert.equal(n.key, 'notified');
      const outcome = await debitResult(n.orderId);
      assert.deepEqual(outcome, { result: 'executionFailed', status: 'Failure', attempts: 4 });
      const times = (await callsFor(n.orderId)).map((c) => formatIstDateTime(c.at).slice(11, 16));
      // 09:30 fails; 10:30 is in the 10:00-13:00 window, so the retry waits until 13:00; then hourly.
      assert.deepEqual(times, ['09:30', '13:00', '14:00', '15:00']);
      assert.equal((await txnOf(n.orderId))?.responseCode, '1112');
    });
  });

  it('revoking the mandate cancels a scheduled debit (1124) before it reaches the bank', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const { orderId: parent } = await mandate();
      const n = await notify(parent, `${istDate(clock, 3)} 08:00:00`);
      assert.equal(n.key, 'notified');
      await env.sleep(3_600_000);
      const handle = env.client.workflow.getHandle(mandateWorkflowId(merchant.merchantIdentifier, parent));
      assert.equal(await handle.executeUpdate(revokeMandateUpdate), 'REVOKED');
      assert.deepEqual(await debitResult(n.orderId), { result: 'executionCancelled', status: 'Failure', attempts: 0 });
      assert.equal((await callsFor(n.orderId)).length, 0);
      assert.equal(
        (await deps.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId: parent }))?.state,
        'REVOKED',
      );
    });
  });

  it('expiry after endDate cancels a debit still awaiting confirmation; the mandate ends EXPIRED', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      // endDate tomorrow: valid until the midnight after it.
      const { orderId: parent } = await mandate({ endInDays: 1 });
      const n = await notify(parent, `${istDate(clock, 1)} 22:00:00`, { autoExecute: false });
      assert.equal(n.key, 'notified');
      assert.deepEqual(await debitResult(n.orderId), { result: 'executionCancelled', status: 'Failure', attempts: 0 });
      assert.equal((await callsFor(n.orderId)).length, 0);
      const handle = env.client.workflow.getHandle(mandateWorkflowId(merchant.merchantIdentifier, parent));
      assert.deepEqual(await handle.result(), {
        state: 'EXPIRED',
        debits: [mandateDebitWorkflowId(merchant.merchantIdentifier, n.orderId)],
      });
      // It expired at the midnight (IST) that ends endDate.
      const closed = (await handle.describe()).closeTime!;
      const midnight = istAt(clock, 2, '00:00:00');
      assert.ok(closed >= midnight && closed.getTime() < midnight.getTime() + 60_000, closed.toISOString());
    });
  });

  it('autoExecute false: the debit waits for the merchant; confirmed it runs, unconfirmed it lapses after 24 hours (1123)', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const { orderId: parent } = await mandate();
      const confirmed = await notify(parent, `${istDate(clock, 1)} 08:00:00`, { autoExecute: false });
      const lapsing = await notify(parent, `${istDate(clock, 1)} 08:00:00`, { autoExecute: false });
      // action execute, through the API's use case: refused before executionDate, confirmed after.
      const execute = () => confirmMandateDebit(deps, merchant, { orderId: confirmed.orderId, mandateParentOrderId: parent });
      assert.equal((await execute()).key, 'nothingToExecute');
      await assert.rejects(debitHandle(confirmed.orderId).executeUpdate(confirmDebitUpdate), (e: Error) =>
        /not awaiting confirmation/.test(String((e.cause as Error | undefined)?.message)),
      );
      await skipTo(istAt(clock, 1, '08:30:00'));
      assert.equal(await debitHandle(confirmed.orderId).query(mandateDebitStageQuery), 'awaiting-confirmation');
      const answer = await execute();
      assert.equal(answer.key, 'executeConfirmed');
      assert.deepEqual(answer.bankPostData?.amount, '25000');
      assert.deepEqual(await debitResult(confirmed.orderId), { result: 'executed', status: 'Success', attempts: 1 });
      assert.deepEqual(await debitResult(lapsing.orderId), { result: 'executionLapsed', status: 'Failure', attempts: 0 });
      assert.equal((await txnOf(lapsing.orderId))?.responseCode, '1123');
      assert.equal((await callsFor(lapsing.orderId)).length, 0);
    });
  });

  it('a worker restart between notify and execution still executes exactly once', async () => {
    await skipTo(istAt(await serverNow(), 1, '08:00:00'));
    const n = await withWorker(async () => {
      const { orderId: parent } = await mandate();
      return notify(parent, `${istDate(clock, 2)} 08:00:00`);
    });
    assert.equal(n.key, 'notified');
    // No worker while a day passes: the timer is the server's, not a process's.
    await env.sleep(86_400_000);
    const outcome = await withWorker(() => debitResult(n.orderId));
    assert.deepEqual(outcome, { result: 'executed', status: 'Success', attempts: 1 });
    assert.equal((await callsFor(n.orderId)).length, 1);
    assert.equal((await txnOf(n.orderId))?.status, 'Success');
  });
});
