import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import type { BankPayoutAnswer, BankPayoutRequest, BankPayouts } from '../../src/bank/connector';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { createSettlementActivities, type SettlementActivityDeps } from '../../activities/settlement-activities';
import { DEFAULT_FEE_PLAN, type FeePlan } from '../../src/domain/settlement-fees';
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
  releaseSettlementSignal,
  settlementStateQuery,
  settlementWorkflowId,
  type SettlementWorkflowResult,
} from '../../src/temporal/settlement-contract';
import { testStore, timeSkippingPerSuite, workflowBundle } from '../support/servers';
import { settlementRepositories } from '../../src/main/use-cases/settlement-deps';

const MASTER_KEY = 'a'.repeat(64);
// 1 % on UPI, no fixed fee: a 100-rupee sale pays 1 rupee of fee and 18 paise of GST.
const plan: FeePlan = {
  upi: { percentBps: 100, fixedPaise: 0 },
  card: { debit: { percentBps: 0, fixedPaise: 0 }, credit: { percentBps: 0, fixedPaise: 0 } },
  netbanking: { percentBps: 0, fixedPaise: 0 },
  wallet: { percentBps: 0, fixedPaise: 0 },
  refundReturnsFee: false,
};
const account = { ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Test Merchant' };

/**
 * The settlement workflow on the time-skipping server with its real activities against the real
 * store; the bank is the sandbox connector (idempotent per payoutId, as the protocol says) behind a
 * recorder that can crash or refuse on demand: the point is the workflow's exactly-once money.
 * Dates: captures on Monday 2026-11-02 (IST) settle Tuesday 2026-11-03 (T+1), Tuesday's on Wednesday...
 */
describe('settlement workflow (time-skipping, real store)', function () {
  this.timeout(180_000);
  const env = timeSkippingPerSuite();
  const taskQueue = 'settlement-test';
  let store: Store;
  let transactions: TransactionRepository;
  let settlements: SettlementRepository;
  let settings: SettlementSettingsRepository;

  before(async () => {
    const s = await testStore();
    // A database of its own: the daily starter reads every merchant of its store, and other suites'
    // orders in the shared one are sealed under their own keys.
    store = await connectStore(s.uri, `${s.dbName}_settlement_${Date.now().toString(36)}`);
    transactions = new TransactionRepository(store.db, MASTER_KEY);
    settlements = new SettlementRepository(store.db);
    settings = new SettlementSettingsRepository(store.db);
  });
  after(async () => {
    await store?.db.dropDatabase().catch(() => undefined);
    await store?.close();
  });

  /** The bank as the workflow sees it: every request noted; `refuse` dates refused; crash after paying once. */
  class RecordingBank implements BankPayouts {
    readonly sandbox = new SandboxBankConnector();
    readonly requests: BankPayoutRequest[] = [];
    refuse = new Set<string>();
    async requestPayout(r: BankPayoutRequest): Promise<BankPayoutAnswer> {
      this.requests.push(r);
      if (this.refuse.has(r.payoutId))
        return { status: 'REFUSED', utr: null, responseCode: '91', responseDescription: 'beneficiary bank down' };
      return this.sandbox.requestPayout(r);
    }
    inquirePayout(r: { payoutId: string }) {
      return this.sandbox.inquirePayout(r);
    }
    settlementFile(date: string) {
      return this.sandbox.settlementFile(date);
    }
  }

  function activitiesWith(bank: BankPayouts, o: { crashAfterPayoutOnce?: boolean; onClaimPage?: () => Promise<void> } = {}) {
    const deps: SettlementActivityDeps = {
      settlementStore: settlements,
      settlementAttention: new SettlementAttentionRepository(store.db),
      settlementClaims: new SettlementClaimRepository(store.db, transactions),
      settlementSettings: settings,
      payouts: bank,
      settlementAccount: async () => account,
      payoutAccountSeal: new PayoutAccountSeal(MASTER_KEY),
      merchants: new MerchantRepository(store.db, MASTER_KEY),
      settlementCalendar: { days: 1, holidays: new Set() },
      defaultFeePlan: plan,
      now: () => new Date(),
      temporal: env().client,
      taskQueue,
    };
    const real = createSettlementActivities(deps);
    let crashed = false;
    return {
      ...real,
      async claimSettlementPage(input: Parameters<typeof real.claimSettlementPage>[0]) {
        await o.onClaimPage?.();
        return real.claimSettlementPage(input);
      },
      // The worker dies after the bank paid and before anything was recorded: the activity is retried.
      async requestSettlementPayoutUnlessHeld(input: Parameters<typeof real.requestSettlementPayoutUnlessHeld>[0]) {
        const answer = await real.requestSettlementPayoutUnlessHeld(input);
        if (o.crashAfterPayoutOnce && !crashed) {
          crashed = true;
          throw new Error('worker crashed after the payout');
        }
        return answer;
      },
    };
  }

  async function settle(
    activities: ReturnType<typeof activitiesWith>,
    merchantIdentifier: string,
    settlementDate: string,
  ): Promise<SettlementWorkflowResult> {
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    return worker.runUntil(
      env().client.workflow.execute('settlementWorkflow', {
        workflowId: settlementWorkflowId(merchantIdentifier, settlementDate),
        taskQueue,
        args: [{ merchantIdentifier, settlementDate }],
      }),
    );
  }

  const merchant = () => `m${randomBytes(8).toString('hex')}`;

  /** A paid UPI order captured at `at` (stored as the repository reads it: instrument in clear, as before sealing). */
  async function paid(merchantIdentifier: string, amountPaise: number, at: string, extra: Record<string, unknown> = {}) {
    const orderId = `o-${randomBytes(6).toString('hex')}`;
    const txnId = `T${randomBytes(8).toString('hex')}`;
    const when = new Date(at);
    await store.db.collection('transactions').insertOne({
      _id: `${merchantIdentifier}:${orderId}` as never,
      txnId,
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
      ...extra,
    });
    return { merchantIdentifier, orderId, txnId };
  }

  const lines = (settlementId: string) => store.db.collection('settlement_lines').find({ settlementId }).toArray();

  it('a crash between the payout and its record pays once: one payout at the bank, one UTR on the settlement and its lines', async () => {
    const m = merchant();
    await paid(m, 10_000, '2026-11-02T05:00:00Z');
    await paid(m, 20_000, '2026-11-02T12:00:00Z');
    const bank = new RecordingBank();
    const result = await settle(activitiesWith(bank, { crashAfterPayoutOnce: true }), m, '2026-11-03');
    const id = settlementWorkflowId(m, '2026-11-03');
    // 300 rupees - 3 rupees fee - 54 paise GST
    assert.equal(result.state, 'paid');
    assert.equal(result.netPaise, 30_000 - 300 - 54);
    assert.equal(bank.requests.length, 2, 'the retried activity asked again, with the same payoutId');
    assert.deepEqual(new Set(bank.requests.map((r) => r.payoutId)), new Set([id]));
    const file = await bank.settlementFile(new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10));
    assert.deepEqual(
      file.filter((p) => p.merchantIdentifier === m).map((p) => [p.payoutId, p.amountPaise]),
      [[id, 29_646]],
      'one payout at the bank',
    );
    const s = (await settlements.find(id))!;
    assert.equal(s.utr, file.find((p) => p.payoutId === id)!.utr);
    assert.deepEqual([s.grossPaise, s.feePaise, s.taxPaise, s.lineCount], [30_000, 300, 54, 2]);
    const ls = await lines(id);
    assert.equal(ls.length, 2);
    assert.ok(
      ls.every((l) => !('utr' in l)),
      'the UTR is kept on the settlement only (one write whatever the line count)',
    );
    // A second run of the same settlement (a schedule's catch-up) claims nothing new and pays nothing.
    const again = await settle(activitiesWith(bank), m, '2026-11-03').catch((e: Error) => e);
    assert.ok(again instanceof Error || again.state === 'paid');
    assert.equal(new Set(bank.requests.map((r) => r.payoutId)).size, 1);
  });

  it('a payout refused is carried into the next cycle, whose payout holds its money once', async () => {
    const m = merchant();
    await paid(m, 10_000, '2026-11-02T05:00:00Z');
    await paid(m, 5_000, '2026-11-03T05:00:00Z');
    const bank = new RecordingBank();
    bank.refuse.add(settlementWorkflowId(m, '2026-11-03'));
    const first = await settle(activitiesWith(bank), m, '2026-11-03');
    assert.equal(first.state, 'payout_refused');
    const refused = (await settlements.find(settlementWorkflowId(m, '2026-11-03')))!;
    assert.equal(refused.carriedOutPaise, 10_000 - 100 - 18);
    assert.match(refused.failureReason!, /91/);
    assert.ok(
      (await settlements.refusedNotCarried(1000)).some((s) => s._id === refused._id),
      'needs attention',
    );

    const second = await settle(activitiesWith(bank), m, '2026-11-04');
    assert.equal(second.state, 'paid');
    const next = (await settlements.find(settlementWorkflowId(m, '2026-11-04')))!;
    assert.equal(next.carriedInPaise, 9_882);
    assert.equal(next.netPaise, 9_882 + 5_000 - 50 - 9);
    assert.deepEqual(
      bank.requests.map((r) => [r.payoutId, r.amountPaise]),
      [
        [settlementWorkflowId(m, '2026-11-03'), 9_882],
        [settlementWorkflowId(m, '2026-11-04'), 14_823],
      ],
    );
    assert.ok(!(await settlements.refusedNotCarried(1000)).some((s) => s._id === refused._id), 'no longer needs attention');
    // A later settlement does not take the same carry again.
    await paid(m, 1_000, '2026-11-04T05:00:00Z');
    const third = await settle(activitiesWith(bank), m, '2026-11-05');
    assert.equal(third.netPaise, 1_000 - 10 - 2);
  });

  it('a refund settling after its payment was settled is deducted from the next settlement; a negative net carries forward', async () => {
    const m = merchant();
    const sale = await paid(m, 10_000, '2026-11-02T05:00:00Z');
    const bank = new RecordingBank();
    assert.equal((await settle(activitiesWith(bank), m, '2026-11-03')).state, 'paid');
    // Refunded in full on Tuesday (IST): Wednesday's settlement deducts it; nothing else that day.
    await store.db.collection('transactions').updateOne(
      { txnId: sale.txnId },
      {
        $set: {
          status: 'Refund',
          updatedAt: new Date('2026-11-03T06:00:00Z'),
          adjustedAt: new Date('2026-11-03T06:00:00Z'),
          refunds: [
            {
              merchantRefId: 'r1',
              amountPaise: 10_000,
              rrn: '999',
              status: 'SUCCESS',
              createdAt: new Date('2026-11-03T05:00:00Z'),
              completedAt: new Date('2026-11-03T06:00:00Z'),
            },
          ],
        },
        $inc: { version: 1 },
      },
    );
    const wednesday = await settle(activitiesWith(bank), m, '2026-11-04');
    assert.equal(wednesday.state, 'carried_forward');
    assert.equal(wednesday.netPaise, -10_000);
    const refundLines = await lines(settlementWorkflowId(m, '2026-11-04'));
    assert.deepEqual(
      refundLines.map((l) => [l._id, l.settlementAmountPaise]),
      [[`REFUND:${sale.txnId}/r1:${m}`, -10_000]],
    );
    // Thursday: a 150-rupee sale pays 150 - fee - tax - the 100 rupees carried.
    await paid(m, 15_000, '2026-11-04T05:00:00Z');
    const thursday = await settle(activitiesWith(bank), m, '2026-11-05');
    assert.equal(thursday.state, 'paid');
    assert.equal(thursday.netPaise, 15_000 - 150 - 27 - 10_000);
    // The refund was claimed once: its sale's settlement and Thursday's hold no line of it.
    const all = await store.db.collection('settlement_lines').find({ txnId: sale.txnId }).toArray();
    assert.deepEqual(all.map((l) => l.action).sort(), ['REFUND', 'SALE']);
  });

  it('a held merchant waits in state held until released, then settles', async () => {
    const m = merchant();
    await paid(m, 10_000, '2026-11-02T05:00:00Z');
    await settings.setHeld(m, true, new Date());
    const bank = new RecordingBank();
    const activities = activitiesWith(bank);
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    const result = await worker.runUntil(async () => {
      const handle = await env().client.workflow.start('settlementWorkflow', {
        workflowId: settlementWorkflowId(m, '2026-11-03'),
        taskQueue,
        args: [{ merchantIdentifier: m, settlementDate: '2026-11-03' }],
      });
      for (let i = 0; i < 100 && (await handle.query(settlementStateQuery)) !== 'held'; i++)
        await new Promise((r) => setTimeout(r, 100));
      assert.equal(await handle.query(settlementStateQuery), 'held');
      assert.equal((await settlements.find(settlementWorkflowId(m, '2026-11-03')))!.state, 'held');
      assert.equal(bank.requests.length, 0);
      await settings.setHeld(m, false, new Date());
      await handle.signal(releaseSettlementSignal);
      return handle.result();
    });
    assert.equal(result.state, 'paid');
    assert.equal(bank.requests.length, 1);
  });

  it('a hold placed while the settlement claims stops it before the payout; the release pays it once', async () => {
    const m = merchant();
    await paid(m, 10_000, '2026-11-02T05:00:00Z');
    const bank = new RecordingBank();
    // The operator holds the merchant after the settlement opened, while it claims its first page.
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
    const activities = activitiesWith(bank, { onClaimPage: async () => void (await ops.hold(m)) });
    const id = settlementWorkflowId(m, '2026-11-03');
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    const result = await worker.runUntil(async () => {
      const handle = await env().client.workflow.start('settlementWorkflow', {
        workflowId: id,
        taskQueue,
        args: [{ merchantIdentifier: m, settlementDate: '2026-11-03' }],
      });
      for (let i = 0; i < 200 && (await handle.query(settlementStateQuery)) !== 'held'; i++)
        await new Promise((r) => setTimeout(r, 100));
      assert.equal(await handle.query(settlementStateQuery), 'held');
      const s = (await settlements.find(id))!;
      assert.deepEqual([s.state, s.netPaise, s.lineCount], ['held', 9_882, 1], 'claimed and totalled, then held');
      assert.equal(bank.requests.length, 0, 'no payout while held');
      // The operator's release (the use case behind the ops API) clears the flag and signals it.
      assert.deepEqual(await ops.release(m), [id]);
      return handle.result();
    });
    assert.equal(result.state, 'paid');
    assert.deepEqual(
      bank.requests.map((r) => [r.payoutId, r.amountPaise]),
      [[id, 9_882]],
      'exactly one payout',
    );
    assert.equal((await settlements.find(id))!.state, 'paid');
  });

  it('a hold placed once the payout is requested does not stop it, even across a crash and retry', async () => {
    const m = merchant();
    await paid(m, 10_000, '2026-11-02T05:00:00Z');
    const bank = new RecordingBank();
    // The hold arrives while the bank is being asked: the payout was requested, so it goes on.
    const holdingBank: BankPayouts = {
      requestPayout: async (r) => {
        await settings.setHeld(m, true, new Date());
        return bank.requestPayout(r);
      },
      inquirePayout: (r) => bank.inquirePayout(r),
      settlementFile: (d) => bank.settlementFile(d),
    };
    const result = await settle(activitiesWith(holdingBank, { crashAfterPayoutOnce: true }), m, '2026-11-03');
    assert.equal(result.state, 'paid', 'the retry after the crash asks again, held or not');
    assert.deepEqual(new Set(bank.requests.map((r) => r.payoutId)), new Set([settlementWorkflowId(m, '2026-11-03')]));
    assert.equal((await settlements.held(m)).length, 0);
  });

  /**
   * The money identity per merchant, from what the engine stored: what its paid settlements paid,
   * plus the fees and taxes of its lines, plus what is still unsettled (a carry no later settlement
   * took, split shares parked for it) equals what its payers paid it minus refunds and chargebacks.
   */
  async function moneyOf(m: string) {
    const all = await store.db.collection('settlements').find({ merchantIdentifier: m }).toArray();
    const parked = await store.db
      .collection('settlement_lines')
      .find({ settlementId: `pending:${m}` })
      .toArray();
    const sum = (xs: Record<string, unknown>[], f: string) => xs.reduce((t, x) => t + (x[f] as number), 0);
    return {
      paidOut: sum(
        all.filter((x) => x.state === 'paid'),
        'netPaise',
      ),
      fees: sum(all, 'feePaise') + sum(parked, 'feePaise') + sum(all, 'taxPaise') + sum(parked, 'taxPaise'),
      unsettled:
        sum(
          all.filter((x) => (x.state === 'carried_forward' || x.state === 'payout_refused') && !x.carriedIntoId),
          'carriedOutPaise',
        ) + sum(parked, 'settlementAmountPaise'),
    };
  }
  const identity = async (m: string) => {
    const { paidOut, fees, unsettled } = await moneyOf(m);
    return paidOut + fees + unsettled;
  };

  it('a split order settles each share to its own merchant, the fee and tax on the master, to the paisa', async () => {
    const [master, sub1, sub2] = [merchant(), merchant(), merchant()];
    const split = {
      masterMerchantIdentifier: master,
      shares: [
        { merchantIdentifier: master, amountPaise: 4_001 },
        { merchantIdentifier: sub1, amountPaise: 3_500 },
        { merchantIdentifier: sub2, amountPaise: 2_499 },
      ],
      at: new Date('2026-11-02T05:10:00Z'),
    };
    const order = await paid(master, 10_000, '2026-11-02T05:00:00Z', { split });
    const bank = new RecordingBank();
    const activities = activitiesWith(bank);
    // sub2's settlement runs before its master's: its share waits for its next settlement.
    assert.equal((await settle(activities, sub2, '2026-11-03')).state, 'carried_forward');
    assert.equal((await settle(activities, master, '2026-11-03')).netPaise, 4_001 - 100 - 18);
    assert.equal((await settle(activities, sub1, '2026-11-03')).netPaise, 3_500);
    assert.equal((await settle(activities, sub2, '2026-11-04')).netPaise, 2_499);
    assert.deepEqual(
      bank.requests.map((r) => [r.merchantIdentifier, r.amountPaise]),
      [
        [master, 3_883],
        [sub1, 3_500],
        [sub2, 2_499],
      ],
    );
    const shareLines = await store.db.collection('settlement_lines').find({ txnId: order.txnId }).sort({ _id: 1 }).toArray();
    assert.deepEqual(
      shareLines
        .map((l) => [l.merchantIdentifier, l.settlementId, l.amountPaise, l.feePaise, l.taxPaise, l.settlementAmountPaise])
        .sort(),
      [
        [master, settlementWorkflowId(master, '2026-11-03'), 4_001, 100, 18, 3_883],
        [sub1, settlementWorkflowId(sub1, '2026-11-03'), 3_500, 0, 0, 3_500],
        [sub2, settlementWorkflowId(sub2, '2026-11-04'), 2_499, 0, 0, 2_499],
      ].sort(),
    );
    // Every paisa the payer paid: the three payouts plus the fee and its tax.
    assert.equal(bank.requests.reduce((t, r) => t + r.amountPaise, 0) + 100 + 18, 10_000);
    assert.deepEqual(
      [await identity(master), await identity(sub1), await identity(sub2)],
      [4_001, 3_500, 2_499],
      "each merchant's share",
    );
  });

  it('a chargeback after its sale was settled is deducted from the next settlement, its revert added back', async () => {
    const m = merchant();
    const sale = await paid(m, 10_000, '2026-11-02T05:00:00Z');
    const bank = new RecordingBank();
    const activities = activitiesWith(bank);
    assert.equal((await settle(activities, m, '2026-11-03')).netPaise, 9_882);
    // The bank charges the whole sale back on Tuesday (IST): Wednesday's settlement deducts it.
    await store.db.collection('transactions').updateOne(
      { txnId: sale.txnId },
      {
        $set: {
          chargeback: { amountPaise: 10_000, raisedAt: new Date('2026-11-03T06:00:00Z'), revertedAt: null },
          updatedAt: new Date('2026-11-03T06:00:00Z'),
          adjustedAt: new Date('2026-11-03T06:00:00Z'),
        },
        $inc: { version: 1 },
      },
    );
    const wednesday = await settle(activities, m, '2026-11-04');
    assert.deepEqual([wednesday.state, wednesday.netPaise], ['carried_forward', -10_000]);
    assert.equal(await identity(m), 10_000 - 10_000, 'paid minus the chargeback');
    // The merchant wins the dispute on Wednesday, and sells 50 rupees: Thursday adds the revert back.
    await store.db.collection('transactions').updateOne(
      { txnId: sale.txnId },
      {
        $set: {
          'chargeback.revertedAt': new Date('2026-11-04T06:00:00Z'),
          updatedAt: new Date('2026-11-04T06:00:00Z'),
          adjustedAt: new Date('2026-11-04T06:00:00Z'),
        },
        $inc: { version: 1 },
      },
    );
    await paid(m, 5_000, '2026-11-04T05:00:00Z');
    const thursday = await settle(activities, m, '2026-11-05');
    assert.equal(thursday.state, 'paid');
    assert.equal(thursday.netPaise, 10_000 - 10_000 + 5_000 - 50 - 9, 'revert + sale - the chargeback carried in');
    const t = (await settlements.find(settlementWorkflowId(m, '2026-11-05')))!;
    assert.deepEqual([t.chargebacksPaise, t.carriedInPaise, t.grossPaise], [-10_000, -10_000, 5_000]);
    const cbLines = await store.db.collection('settlement_lines').find({ txnId: sale.txnId }).toArray();
    assert.deepEqual(cbLines.map((l) => [l.action, l.settlementId, l.settlementAmountPaise]).sort(), [
      ['CHARGEBACK', settlementWorkflowId(m, '2026-11-04'), -10_000],
      ['CHARGEBACK_REVERSAL', settlementWorkflowId(m, '2026-11-05'), 10_000],
      ['SALE', settlementWorkflowId(m, '2026-11-03'), 9_882],
    ]);
    // A fourth settlement claims neither again.
    await paid(m, 1_000, '2026-11-05T05:00:00Z');
    assert.equal((await settle(activities, m, '2026-11-06')).netPaise, 1_000 - 10 - 2);
    // Paid 16,000, charged back 10,000 and reverted: all of it is paid out, fees, taxes.
    assert.deepEqual(await moneyOf(m), { paidOut: 9_882 + 4_941 + 988, fees: 160 + 29, unsettled: 0 });
    assert.equal(await identity(m), 16_000);
  });

  it('the daily run starts each merchant on its own: one whose orders cannot be read is reported, the others start and pay', async () => {
    const prefix = merchant();
    const [broken, a, b] = [`${prefix}0`, `${prefix}1`, `${prefix}2`];
    await paid(a, 10_000, '2026-11-23T05:00:00Z');
    await paid(b, 20_000, '2026-11-23T06:00:00Z');
    // An order whose refunds are not a list: reading the merchant's due adjustments throws.
    await paid(broken, 5_000, '2026-11-23T05:00:00Z', {
      successAt: null,
      refunds: 'corrupt',
      adjustedAt: new Date('2026-11-23T05:00:00Z'),
    });
    // The broken merchant first, as the one-activity starter met it before the others.
    await store.db.collection<{ _id: string }>('merchants').insertMany([{ _id: broken }, { _id: a }, { _id: b }]);
    const bank = new RecordingBank();
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: activitiesWith(bank),
    });
    // The suite's later starters walk every merchant of this database: the broken one leaves it, pass or fail.
    const run = await worker
      .runUntil(async () => {
        const result = (await env().client.workflow.execute('settlementDayWorkflow', {
          workflowId: `settlement-day:${prefix}`,
          taskQueue,
          args: [{ settlementDate: '2026-11-24' }],
        })) as { started: number; failed: { merchantIdentifier: string; reason: string }[]; failedCount: number };
        for (const m of [a, b]) await env().client.workflow.getHandle(settlementWorkflowId(m, '2026-11-24')).result();
        return result;
      })
      .finally(() => store.db.collection<{ _id: string }>('merchants').deleteOne({ _id: broken }));
    assert.deepEqual(
      run.failed.map((f) => f.merchantIdentifier),
      [broken],
      'the broken merchant is reported after its retries',
    );
    assert.match(run.failed[0]!.reason, /forEach|refunds/);
    assert.equal(run.failedCount, 1);
    assert.ok(run.started >= 2);
    assert.deepEqual(
      bank.requests
        .filter((r) => r.merchantIdentifier.startsWith(prefix))
        .map((r) => [r.merchantIdentifier, r.amountPaise])
        .sort(),
      [
        [a, 10_000 - 100 - 18],
        [b, 20_000 - 200 - 36],
      ],
    );
    assert.equal(await settlements.find(settlementWorkflowId(broken, '2026-11-24')), null, 'nothing started for it');
    // The operator's "needs attention" lists it, with the reason; the merchants that started are not there.
    const notStarted = (await settlements.startFailuresListed(1000)).filter((f) => f.merchantIdentifier.startsWith(prefix));
    assert.deepEqual(
      notStarted.map((f) => [f.merchantIdentifier, f.settlementDate]),
      [[broken, '2026-11-24']],
    );
    assert.match(notStarted[0]!.reason, /forEach|refunds/);
  });

  it("the daily run starts nothing on a non-working day; a merchant's second start of a date starts nothing", async () => {
    const m = merchant();
    await paid(m, 10_000, '2026-11-16T05:00:00Z');
    await store.db.collection<{ _id: string }>('merchants').insertOne({ _id: m });
    try {
      const activities = activitiesWith(new RecordingBank());
      const start = () => activities.startMerchantSettlement({ merchantIdentifier: m, settlementDate: '2026-11-17' });
      assert.equal(await start(), 'started');
      const handle = env().client.workflow.getHandle(settlementWorkflowId(m, '2026-11-17'));
      assert.equal((await handle.describe()).type, 'settlementWorkflow');
      assert.equal(await start(), 'already_started', 'a second start of the same id does nothing');
      await handle.terminate('the test worker does not run it');

      // Saturday 2026-11-21: the merchant's sale is still unclaimed (due), and nothing starts.
      const worker = await Worker.create({
        connection: env().nativeConnection,
        taskQueue,
        workflowBundle: await workflowBundle(),
        activities: activities,
      });
      const saturday = (await worker.runUntil(
        env().client.workflow.execute('settlementDayWorkflow', {
          workflowId: `settlement-day:${m}:saturday`,
          taskQueue,
          args: [{ settlementDate: '2026-11-21' }],
        }),
      )) as { started: number; alreadyStarted: number; failedCount: number };
      assert.deepEqual([saturday.started, saturday.alreadyStarted, saturday.failedCount], [0, 0, 0]);
      await assert.rejects(
        env().client.workflow.getHandle(settlementWorkflowId(m, '2026-11-21')).describe(),
        /not found/i,
        'no settlement of a Saturday',
      );
    } finally {
      // The suite's other daily runs walk every merchant of this database.
      await store.db.collection<{ _id: string }>('merchants').deleteOne({ _id: m });
    }
  });
});
