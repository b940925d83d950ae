import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { createSettlementActivities, type SettlementActivityDeps } from '../../activities/settlement-activities';
import { BankFailure, type BankPayoutAnswer, type BankPayoutRequest, type BankPayouts } from '../../src/bank/connector';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { DEFAULT_FEE_PLAN } from '../../src/domain/settlement-fees';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { connectStore, type Store } from '../../src/store/mongo';
import { PayoutAccountSeal } from '../../src/store/settlement-account-repository';
import { SettlementAttentionRepository } from '../../src/store/settlement-attention-repository';
import { SettlementClaimRepository } from '../../src/store/settlement-claim-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { SettlementSettingsRepository } from '../../src/store/settlement-settings-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { settlementOperations } from '../../src/usecases/settlement-operations';
import {
  CLAIM_PAGES_PER_RUN,
  settlementStateQuery,
  settlementWorkflowId,
  type SettlementWorkflowResult,
} from '../../src/temporal/settlement-contract';
import { testStore, timeSkippingPerSuite, workflowBundle } from '../support/servers';
import { settlementRepositories } from '../../src/main/use-cases/settlement-deps';

const MASTER_KEY = 'b'.repeat(64);
const ACCOUNT = { ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Test Merchant' };
const DATE = '2026-11-03';

/**
 * The settlement workflow's payout on the time-skipping server, its real activities against the
 * real store; the bank is the sandbox connector behind fakes that refuse, conflict or forget on
 * demand. Orders captured Monday 2026-11-02 (IST) settle Tuesday 2026-11-03.
 */
describe('settlement payouts (time-skipping, real store)', function () {
  this.timeout(300_000);
  const env = timeSkippingPerSuite();
  const taskQueue = 'settlement-payout-test';
  let store: Store;
  let settlements: SettlementRepository;
  let settings: SettlementSettingsRepository;

  before(async () => {
    const s = await testStore();
    store = await connectStore(s.uri, `${s.dbName}_payout_${Date.now().toString(36)}`);
    settlements = new SettlementRepository(store.db);
    settings = new SettlementSettingsRepository(store.db);
  });
  after(async () => {
    await store?.db.dropDatabase().catch(() => undefined);
    await store?.close();
  });

  /** The sandbox bank, every request noted; `answer` replaces its answer to a request when it returns one. */
  class Bank implements BankPayouts {
    readonly sandbox = new SandboxBankConnector();
    readonly requests: BankPayoutRequest[] = [];
    answer: (r: BankPayoutRequest, n: number) => Promise<BankPayoutAnswer | undefined> = async () => undefined;
    async requestPayout(r: BankPayoutRequest) {
      this.requests.push(r);
      return (await this.answer(r, this.requests.length)) ?? this.sandbox.requestPayout(r);
    }
    inquirePayout(r: { payoutId: string }) {
      return this.sandbox.inquirePayout(r);
    }
    settlementFile(date: string) {
      return this.sandbox.settlementFile(date);
    }
  }

  const refusedWith = (status: number) =>
    ApplicationFailure.create({
      message: `POST /v1/payouts: the bank refused the request with ${status}`,
      type: BankFailure.REQUEST_REFUSED,
      nonRetryable: true,
      details: [status],
    });

  function deps(bank: BankPayouts, over: Partial<SettlementActivityDeps> = {}): SettlementActivityDeps {
    const transactions = new TransactionRepository(store.db, MASTER_KEY);
    return {
      settlementStore: settlements,
      settlementAttention: new SettlementAttentionRepository(store.db),
      settlementClaims: new SettlementClaimRepository(store.db, transactions),
      settlementSettings: settings,
      payouts: bank,
      settlementAccount: async () => ACCOUNT,
      payoutAccountSeal: new PayoutAccountSeal(MASTER_KEY),
      merchants: new MerchantRepository(store.db, MASTER_KEY),
      settlementCalendar: { days: 1, holidays: new Set() },
      defaultFeePlan: DEFAULT_FEE_PLAN,
      now: () => new Date(),
      temporal: env().client,
      taskQueue,
      ...over,
    };
  }

  async function run<T>(activities: object, work: () => Promise<T>): Promise<T> {
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    return worker.runUntil(work);
  }

  const start = (m: string) =>
    env().client.workflow.start('settlementWorkflow', {
      workflowId: settlementWorkflowId(m, DATE),
      taskQueue,
      args: [{ merchantIdentifier: m, settlementDate: DATE }],
      // Old code awaiting a bank that forgot the payout never ends: bounded, so it fails here.
      workflowExecutionTimeout: '1 day',
    });
  const settle = (activities: object, m: string) =>
    run(activities, async () => (await start(m)).result() as Promise<SettlementWorkflowResult>);

  const merchant = () => `m${randomBytes(8).toString('hex')}`;

  /** A paid UPI order captured Monday. */
  async function paid(merchantIdentifier: string, amountPaise: number) {
    const orderId = `o-${randomBytes(6).toString('hex')}`;
    const when = new Date('2026-11-02T05:00:00Z');
    await store.db.collection('transactions').insertOne({
      _id: `${merchantIdentifier}:${orderId}` as never,
      txnId: `T${randomBytes(8).toString('hex')}`,
      merchantIdentifier,
      orderId,
      amountPaise,
      productDescription: 'test',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox' },
      status: 'Success',
      responseCode: '100',
      responseDescription: 'Transaction Successful',
      bankRefNum: '123456789012',
      authCode: '123456',
      markedFailedByService: false,
      createdAt: when,
      updatedAt: when,
      completedAt: when,
      successAt: when,
      refunds: [],
      version: 1,
    });
  }

  it('a payout the bank refuses with a 4xx (it did not act) ends payout_refused, the workflow completed, its net carried', async () => {
    const m = merchant();
    await paid(m, 10_000);
    const bank = new Bank();
    bank.answer = async () => {
      throw refusedWith(400);
    };
    const result = await settle(createSettlementActivities(deps(bank)), m);
    assert.equal(result.state, 'payout_refused');
    const id = settlementWorkflowId(m, DATE);
    const { status } = await env().client.workflow.getHandle(id).describe();
    assert.equal(status.name, 'COMPLETED');
    const s = (await settlements.find(id))!;
    assert.equal(s.carriedOutPaise, s.netPaise);
    assert.match(s.failureReason!, /HTTP_400/);
    assert.ok(
      (await settlements.refusedNotCarried(1000)).some((x) => x._id === id),
      'listed until carried',
    );
    // Its sale is claimed by a final settlement, and its net goes into the next one, paid.
    const lines = await store.db.collection('settlement_lines').find({ merchantIdentifier: m }).toArray();
    assert.deepEqual(
      lines.map((l) => l.settlementId),
      [id],
    );
    bank.answer = async () => undefined;
    const next = await run(createSettlementActivities(deps(bank)), async () =>
      (
        await env().client.workflow.start('settlementWorkflow', {
          workflowId: settlementWorkflowId(m, '2026-11-04'),
          taskQueue,
          args: [{ merchantIdentifier: m, settlementDate: '2026-11-04' }],
        })
      ).result(),
    );
    assert.deepEqual([next.state, next.netPaise], ['paid', s.netPaise]);
  });

  it('a 4xx answering a repeat of a payout the bank took is no refusal: the bank is asked, paid once, nothing carried', async () => {
    const m = merchant();
    await paid(m, 10_000);
    const bank = new Bank();
    // The bank takes the first request and its answer is lost; it refuses the retry (a duplicate).
    bank.answer = async (r, n) => {
      if (n > 1) throw refusedWith(400);
      await bank.sandbox.requestPayout(r);
      throw new Error('connection reset');
    };
    const result = await settle(createSettlementActivities(deps(bank)), m);
    assert.equal(result.state, 'paid', 'what the bank holds is recorded, not the refusal of the repeat');
    const s = (await settlements.find(settlementWorkflowId(m, DATE)))!;
    assert.equal(s.carriedOutPaise, 0, 'nothing carried into a second payout');
    assert.match(s.utr!, /^SBX/);
  });

  it('a 409 (the payoutId known with other contents) is an inquiry: what the bank holds is recorded, nothing fails', async () => {
    const m = merchant();
    await paid(m, 10_000);
    const bank = new Bank();
    // The bank paid the payoutId earlier and refuses this request of it as a conflict.
    bank.answer = async (r) => {
      await bank.sandbox.requestPayout(r);
      throw refusedWith(409);
    };
    const result = await settle(createSettlementActivities(deps(bank)), m);
    assert.equal(result.state, 'paid');
    assert.match((await settlements.find(settlementWorkflowId(m, DATE)))!.utr!, /^SBX/);
  });

  it('every attempt sends the account stored when the payout was first requested, whatever the account is now', async () => {
    const m = merchant();
    await paid(m, 10_000);
    const bank = new Bank();
    let reads = 0;
    const accountNow = async () => (reads++ === 0 ? ACCOUNT : { ...ACCOUNT, accountNumber: '60200098765432' });
    // The first request is lost to a network fault after the bank took it; the retry must be the same payout.
    bank.answer = async (r, n) => {
      if (n > 1) return undefined;
      await bank.sandbox.requestPayout(r);
      throw new Error('connection reset');
    };
    const result = await settle(createSettlementActivities(deps(bank, { settlementAccount: accountNow })), m);
    assert.equal(result.state, 'paid');
    assert.deepEqual(
      bank.requests.map((r) => r.accountNumber),
      [ACCOUNT.accountNumber, ACCOUNT.accountNumber],
    );
  });

  it('a hold placed after the payout is marked requested, before the bank is asked, stops it; the release pays it once', async () => {
    const m = merchant();
    await paid(m, 10_000);
    const bank = new Bank();
    const ops = settlementOperations({
      ...settlementRepositories(store.db),
      config: {
        settlements: {
          feePlan: DEFAULT_FEE_PLAN,
          days: 1,
          holidays: new Set(),
          attentionOpenMinutes: 120,
          attentionPayoutMinutes: 1440,
          attentionHeldMinutes: 10080,
        },
        temporal: { taskQueue },
      },
      temporal: env().client,
      now: () => new Date(),
    });
    let told: string[] = [];
    const marking = Object.create(settlements) as SettlementRepository;
    marking.markPayoutRequested = async (...args) => {
      await settlements.markPayoutRequested(...args);
      if (!told.length) told = (await ops.hold(m)).payoutRequested;
    };
    const id = settlementWorkflowId(m, DATE);
    const result = await run(createSettlementActivities(deps(bank, { settlementStore: marking })), async () => {
      const handle = await start(m);
      for (let i = 0; i < 200 && (await handle.query(settlementStateQuery)) !== 'held'; i++)
        await new Promise((r) => setTimeout(r, 100));
      assert.equal(await handle.query(settlementStateQuery), 'held');
      assert.equal((await settlements.find(id))!.state, 'held', 'shown held: nothing was asked of the bank');
      assert.equal(bank.requests.length, 0, 'no payout while held');
      // The hold was told the payout was marked (it may have gone out); it did not, and shows held.
      assert.deepEqual(told, [id]);
      assert.deepEqual(await ops.release(m), [id]);
      return handle.result() as Promise<SettlementWorkflowResult>;
    });
    assert.equal(result.state, 'paid');
    assert.equal(bank.requests.length, 1, 'exactly one payout');
  });

  it('a PENDING payout the bank then does not know (404) is requested again, the same payout, and paid', async () => {
    const m = merchant();
    await paid(m, 10_000);
    const bank = new Bank();
    // The bank answers PENDING and loses the request: its inquiry answers "unknown".
    bank.answer = async (_r, n) =>
      n === 1 ? { status: 'PENDING', utr: null, responseCode: '09', responseDescription: 'in progress' } : undefined;
    const result = await settle(createSettlementActivities(deps(bank)), m);
    assert.equal(result.state, 'paid');
    assert.equal(bank.requests.length, 2);
    assert.deepEqual(bank.requests[1], bank.requests[0], 'the same id, amount and account');
    const s = (await settlements.find(settlementWorkflowId(m, DATE)))!;
    assert.ok(s.payoutRequestedAt instanceof Date && s.awaitingBankSince instanceof Date, 'when it went to the bank');
  });

  it('the claim continues as new every CLAIM_PAGES_PER_RUN pages, carrying its phase and cursor', async () => {
    const m = merchant();
    await paid(m, 10_000);
    const bank = new Bank();
    const real = createSettlementActivities(deps(bank));
    const seen: (string | null)[] = [];
    const fakePages = CLAIM_PAGES_PER_RUN + 2;
    const activities = {
      ...real,
      // The sales phase walks fakePages pages (a very large day), then the real claim of the sale.
      async claimSettlementPage(input: Parameters<typeof real.claimSettlementPage>[0]) {
        if (input.phase === 'adjustments') return real.claimSettlementPage(input);
        seen.push(input.cursor && 'at' in input.cursor ? input.cursor.at : null);
        const n = seen.length;
        if (n <= fakePages) return { lines: 0, next: { at: `page-${n}`, ties: 0 } };
        return real.claimSettlementPage({ ...input, cursor: null });
      },
    };
    const id = settlementWorkflowId(m, DATE);
    const result = await run(activities, async () => {
      const handle = await start(m);
      const r = (await handle.result()) as SettlementWorkflowResult;
      const first = env().client.workflow.getHandle(id, handle.firstExecutionRunId);
      const history = await first.fetchHistory();
      const events = history.events ?? [];
      assert.ok(
        events.some((e) => e.workflowExecutionContinuedAsNewEventAttributes),
        'the first run continued as new',
      );
      assert.ok(events.length < 10 * CLAIM_PAGES_PER_RUN, `${events.length} events in the first run`);
      return r;
    });
    assert.equal(result.state, 'paid');
    // Every page went on from the one before, across the continued runs.
    assert.deepEqual(seen, [null, ...Array.from({ length: fakePages }, (_, i) => `page-${i + 1}`)]);
    assert.equal((await settlements.find(id))!.lineCount, 1);
  });
});
