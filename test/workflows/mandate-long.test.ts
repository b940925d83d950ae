import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { BankPaymentRequest } from '../../src/bank/connector';
import { createMandateActivities } from '../../activities/mandate-activities';
import { createPaymentActivities } from '../../activities/payment-activities';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { loadConfig, type Config } from '../../src/config';
import { formatIstDateTime } from '../../src/domain/ist-time';
import { isInPeakWindow } from '../../src/domain/peak-windows';
import { MandateRepository } from '../../src/store/mandate-repository';
import type { Merchant } from '../../src/domain/merchant';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { connectStore, type Store } from '../../src/store/mongo';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { mandateDebitWorkflowId, mandateWorkflowId } from '../../src/temporal/workflow-ids';
import { createMandate, type MandateDeps } from '../../src/usecases/create-mandate';
import { notifyMandate } from '../../src/usecases/notify-mandate';
import { provisionMerchant } from '../../src/usecases/provision-merchant';
import { revokeMandate } from '../../src/usecases/revoke-mandate';
import type { MandateDebitOutcome } from '../../src/temporal/mandate-debit-contract';
import type { CarriedMandate } from '../../src/temporal/mandate-contract';
import { RUN_MASTER_KEY } from '../support/gateway';
import { istAt, istDate } from '../support/mandates';
import { testStore, timeSkippingEnvironment, workflowBundle } from '../support/servers';

type Gate = { arrived: Promise<void>; release: () => void };

/**
 * Mandates that live for years and always obey their payer (issue 30), on the time-skipping server
 * with the real activities, store and sandbox bank: a run continues as new and its successor still
 * cancels the debits it carries; a debit never asks the bank once its mandate is not ACTIVE in the
 * store, nor while a revoke is being acknowledged; and a debit attempt Temporal retries into a peak
 * window waits for the window to end.
 */
describe('long-lived mandates and their debits (time-skipping)', function () {
  this.timeout(180_000);
  let env: TestWorkflowEnvironment;
  let store: Store;
  let merchant: Merchant;
  let deps: MandateDeps;
  let config: Config;
  const taskQueue = `mandates-long-${randomBytes(3).toString('hex')}`;
  /** Each call that reached the bank connector, at the server's time of its attempt. */
  const bankCalls: { txnId: string; at: Date }[] = [];
  /** Bank calls that fail (the bank is away) while this says so. */
  let bankDown: (at: Date) => boolean = () => false;
  const gates = new Map<string, Gate & { reached: () => void; released: Promise<void> }>();

  function hold(key: string): Gate {
    let reached!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((r) => (reached = r));
    const released = new Promise<void>((r) => (release = r));
    gates.set(key, { arrived, reached, release, released });
    return { arrived, release };
  }
  async function pass(key: string): Promise<void> {
    const gate = gates.get(key);
    if (!gate) return;
    gates.delete(key);
    gate.reached();
    await gate.released;
  }
  const serverTimeOfAttempt = () => new Date(Context.current().info.currentAttemptScheduledTimestampMs);

  class NotingBank extends SandboxBankConnector {
    override async requestPayment(request: BankPaymentRequest) {
      const at = serverTimeOfAttempt();
      bankCalls.push({ txnId: request.txnId, at });
      await pass(`bank:${request.txnId}`);
      if (bankDown(at)) throw new Error('the bank is away');
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
    merchant = (await merchants.findById(
      (await provisionMerchant(merchants, { name: 'Long Dairy' }, new Date())).merchantIdentifier,
    ))!;
  });
  after(() => store?.close());

  beforeEach(async () => {
    env = await timeSkippingEnvironment();
    bankCalls.length = 0;
    bankDown = () => false;
    deps = {
      config,
      mandates: new MandateRepository(store.db, config.secrets.masterKey),
      transactions: new TransactionRepository(store.db, config.secrets.masterKey),
      temporal: env.client,
      now: () => new Date(),
      realtimeWebhook: false,
    };
  });
  afterEach(() => env?.teardown());

  async function withWorker<T>(fn: () => Promise<T>): Promise<T> {
    const activityDeps = {
      mandates: deps.mandates,
      transactions: deps.transactions,
      merchants: new MerchantRepository(store.db, config.secrets.masterKey, 0),
      bank: new NotingBank(),
      now: serverTimeOfAttempt,
      temporal: env.client,
      taskQueue,
      webhookBatchWindowMs: 1000,
    };
    const real = { ...createMandateActivities(activityDeps), ...createPaymentActivities(activityDeps) };
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      maxCachedWorkflows: 0,
      activities: {
        ...real,
        // Held on entry, before anything is read, where a test asks (`attempt:<txnId>`).
        async requestMandateDebit(i: Parameters<typeof real.requestMandateDebit>[0]) {
          await pass(`attempt:${i.request.txnId}`);
          return real.requestMandateDebit(i);
        },
        async requestBankPayment(r: BankPaymentRequest) {
          await pass(`attempt:${r.txnId}`);
          return real.requestBankPayment(r);
        },
        // Held where a test asks (`hand-over`): the run is handing over to its next one.
        async pendingMandateDebits(i: Parameters<typeof real.pendingMandateDebits>[0]) {
          await pass('hand-over');
          return real.pendingMandateDebits(i);
        },
      },
    });
    return worker.runUntil(fn);
  }

  async function skipTo(at: Date): Promise<void> {
    const now = await env.currentTimeMs();
    assert.ok(at.getTime() >= now, `cannot go back to ${at.toISOString()}`);
    if (at.getTime() > now) await env.sleep(at.getTime() - now);
    deps.now = () => at;
  }
  const serverNow = async () => new Date(await env.currentTimeMs());
  const newId = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
  const order = (orderId: string) => ({ merchantIdentifier: merchant.merchantIdentifier, orderId });
  const mandateHandle = (orderId: string) =>
    env.client.workflow.getHandle(mandateWorkflowId(merchant.merchantIdentifier, orderId));
  const debitHandle = (orderId: string) =>
    env.client.workflow.getHandle(mandateDebitWorkflowId(merchant.merchantIdentifier, orderId));
  const txnOf = (orderId: string) => deps.transactions.findByOrder(order(orderId));

  /** An ACTIVE Adhoc mandate created at the server's time (the sandbox payer answers after a second). */
  async function activeMandate(o: { updatesPerRun?: number } = {}): Promise<string> {
    const orderId = newId('mandate');
    const now = await serverNow();
    const config = o.updatesPerRun
      ? { ...deps.config, mandates: { ...deps.config.mandates, updatesPerRun: o.updatesPerRun } }
      : deps.config;
    const answer = await createMandate({ ...deps, config }, merchant, {
      orderId,
      amountPaise: 500_000,
      productDescription: 'Milk',
      mode: 'upiCollectMandate',
      payerVpa: 'success@sandbox',
      config: { firstDebit: false, frequency: 'Adhoc', startDate: istDate(now), endDate: istDate(now, 365) },
    });
    assert.equal(answer.key, 'created');
    await env.sleep(1_000);
    for (let i = 0; i < 200 && (await deps.mandates.findByOrder(order(orderId)))?.state !== 'ACTIVE'; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal((await deps.mandates.findByOrder(order(orderId)))?.state, 'ACTIVE');
    return orderId;
  }

  const notify = async (parent: string, executionDate: string) => {
    const orderId = newId('debit');
    const answer = await notifyMandate(deps, merchant, {
      orderId,
      amountPaise: 25_000,
      productDescription: 'Milk, June',
      mandateParentOrderId: parent,
      executionDate,
      autoExecute: true,
    });
    assert.equal(answer.key, 'notified');
    return orderId;
  };

  it('continues as new after its updates, carries its Pending debits, and a revoke after that cancels them all unpaid', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const parent = await activeMandate({ updatesPerRun: 3 });
      const firstRun = (await mandateHandle(parent).describe()).runId;
      const debits: string[] = [];
      for (let i = 0; i < 7; i++) debits.push(await notify(parent, `${istDate(deps.now(), 3)} 08:00:00`));
      // 7 notifies at 3 per run: two hand-overs, and the third run holds the last one.
      const history = await env.client.workflow
        .getHandle(mandateWorkflowId(merchant.merchantIdentifier, parent), firstRun)
        .fetchHistory();
      const ended = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes;
      assert.ok(ended, 'the first run continued as new');
      const current = await mandateHandle(parent).describe();
      assert.notEqual(current.runId, firstRun);
      assert.equal(current.status.name, 'RUNNING');
      const currentHistory = await mandateHandle(parent).fetchHistory();
      const payload = currentHistory.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
      const carried = (JSON.parse(Buffer.from(payload!.data!).toString()) as { carried: CarriedMandate }).carried;
      assert.deepEqual(carried, { pendingDebitOrderIds: debits.slice(0, 6), runsBefore: 2, notifiesBefore: 6 });
      for (const orderId of debits) assert.equal((await txnOf(orderId))?.status, 'Pending', orderId);

      const revoked = await revokeMandate(deps, order(parent));
      assert.deepEqual(revoked, { kind: 'ended', state: 'REVOKED' });
      assert.equal((await deps.mandates.findByOrder(order(parent)))?.state, 'REVOKED');
      for (const orderId of debits) {
        const outcome = (await debitHandle(orderId).result()) as MandateDebitOutcome;
        assert.deepEqual(outcome, { result: 'executionCancelled', status: 'Failure', attempts: 0 }, orderId);
        const txn = await txnOf(orderId);
        assert.deepEqual([txn?.status, txn?.responseCode], ['Failure', '1124'], orderId);
      }
      assert.deepEqual(bankCalls, [], 'no debit reached the bank');
      // Days pass: nothing carried over runs at its executionDate either.
      await env.sleep(4 * 86_400_000);
      assert.deepEqual(bankCalls, []);
    });
  });

  it('a revoke sent while the run hands over is answered by the next run, which cancels every debit', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const parent = await activeMandate({ updatesPerRun: 2 });
      const handOver = hold('hand-over');
      const debits = [await notify(parent, `${istDate(deps.now(), 3)} 08:00:00`)];
      debits.push(await notify(parent, `${istDate(deps.now(), 3)} 08:00:00`));
      await handOver.arrived;
      // The run refuses the revoke (MandateContinuingAsNew) while it hands over; the use case sends it again.
      const revoke = revokeMandate(deps, order(parent));
      await new Promise((r) => setTimeout(r, 500));
      handOver.release();
      assert.deepEqual(await revoke, { kind: 'ended', state: 'REVOKED' });
      const history = await env.client.workflow
        .getHandle(mandateWorkflowId(merchant.merchantIdentifier, parent), (await mandateHandle(parent).describe()).runId)
        .fetchHistory();
      assert.ok(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId, 'a later run answered');
      for (const orderId of debits) {
        assert.deepEqual(await debitHandle(orderId).result(), { result: 'executionCancelled', status: 'Failure', attempts: 0 });
      }
      assert.deepEqual(bankCalls, []);
    });
  });

  it('a debit whose mandate is no longer ACTIVE in the store ends 1124 without asking the bank', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const parent = await activeMandate();
      const debit = await notify(parent, `${istDate(deps.now(), 2)} 08:00:00`);
      // The mandate ends in the store while its debit goes on (as an abandoned debit of a mandate
      // whose workflow refused its revoke did): nothing but the store tells the debit.
      await deps.mandates.setState(order(parent), 'REVOKED', ['ACTIVE'], deps.now());
      const outcome = (await debitHandle(debit).result()) as MandateDebitOutcome;
      assert.deepEqual(outcome, { result: 'executionCancelled', status: 'Failure', attempts: 0 });
      const txn = await txnOf(debit);
      assert.deepEqual([txn?.status, txn?.responseCode], ['Failure', '1124']);
      assert.deepEqual(bankCalls, [], 'the bank was never asked');
    });
  });

  it('a debit attempt under way when the revoke commits: no bank call after the revoke is answered', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const parent = await activeMandate();
      const debit = await notify(parent, `${istDate(deps.now(), 1)} 08:00:00`);
      const { txnId } = (await txnOf(debit))!;
      // The debit's timer has fired and its attempt has begun, but has not read the store yet.
      const attempt = hold(`attempt:${txnId}`);
      const skip = env.sleep(86_400_000);
      await attempt.arrived;
      const revoked = await revokeMandate(deps, order(parent));
      assert.deepEqual(revoked, { kind: 'ended', state: 'REVOKED' });
      const answeredAt = bankCalls.length;
      attempt.release();
      await skip;
      const outcome = (await debitHandle(debit).result()) as MandateDebitOutcome;
      assert.equal(bankCalls.length, answeredAt, 'no bank call after the acknowledged revoke');
      assert.deepEqual(outcome, { result: 'executionCancelled', status: 'Failure', attempts: 0 });
    });
  });

  it('a debit at the bank when the payer revokes: the revoke is answered only once the bank has answered', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const parent = await activeMandate();
      const debit = await notify(parent, `${istDate(deps.now(), 1)} 08:00:00`);
      const { txnId } = (await txnOf(debit))!;
      const atBank = hold(`bank:${txnId}`);
      const skip = env.sleep(86_400_000);
      await atBank.arrived;
      let answered = false;
      const revoke = revokeMandate(deps, order(parent)).then((r) => {
        answered = true;
        return r;
      });
      // The store says REVOKED at once (no new attempt can begin), but the answer waits for the bank.
      for (let i = 0; i < 100 && (await deps.mandates.findByOrder(order(parent)))?.state !== 'REVOKED'; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal((await deps.mandates.findByOrder(order(parent)))?.state, 'REVOKED');
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal(answered, false, 'the revoke was answered while a debit was at the bank');
      atBank.release();
      assert.deepEqual(await revoke, { kind: 'ended', state: 'REVOKED' });
      await skip;
      // The bank took the debit before the revoke was acknowledged: it is recorded, not lost.
      assert.deepEqual(await debitHandle(debit).result(), { result: 'executed', status: 'Success', attempts: 1 });
      assert.equal(bankCalls.length, 1);
    });
  });

  it('an attempt Temporal retries into a peak window waits for its end: no call reaches the bank inside one', async () => {
    await withWorker(async () => {
      await skipTo(istAt(await serverNow(), 1, '08:00:00'));
      const parent = await activeMandate();
      const debit = await notify(parent, `${istDate(deps.now(), 1)} 09:59:00`);
      const windowOpens = istAt(deps.now(), 1, '10:00:00');
      // The bank is away from 09:59 until 10:02: the activity's own retries (1 s, 2 s, 4 s, ...) reach 10:00.
      bankDown = (at) => at.getTime() < windowOpens.getTime() + 120_000;
      assert.deepEqual(await debitHandle(debit).result(), { result: 'executed', status: 'Success', attempts: 1 });
      const times = bankCalls.map((c) => formatIstDateTime(c.at));
      assert.ok(bankCalls.length >= 2, times.join(', '));
      assert.deepEqual(
        bankCalls.filter((c) => isInPeakWindow(c.at)).map((c) => formatIstDateTime(c.at)),
        [],
        `calls: ${times.join(', ')}`,
      );
      // The call after the window is at its end (13:00; the test server's clock may run a minute
      // ahead of the attempt's scheduled time, which is the activity's clock here).
      assert.match(times.at(-1)!.slice(11, 16), /^13:0[01]$/, times.join(', '));
    });
  });
});
