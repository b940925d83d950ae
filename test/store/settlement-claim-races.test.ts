import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { MongoClient, type Collection, type Db, type Document } from 'mongodb';
import { createRefundActivities } from '../../activities/refund-activities';
import { createSettlementActivities } from '../../activities/settlement-activities';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { PayerDataCipher } from '../../src/domain/payer-data';
import { DEFAULT_FEE_PLAN } from '../../src/domain/settlement-fees';
import type { TransactionSplit } from '../../src/domain/transaction';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { ADJUSTED_AT_MARKER, backfillAdjustedAt } from '../../src/store/migrations/settlement-adjusted-at';
import { migrateOnce } from '../../src/store/migration-markers';
import { ensureIndexes } from '../../src/store/mongo';
import { CLAIM_LEASE_MS } from '../../src/store/settlement-claim-fence';
import { PayoutAccountSeal } from '../../src/store/settlement-account-repository';
import { SettlementAttentionRepository } from '../../src/store/settlement-attention-repository';
import { SettlementClaimRepository, type ClaimScope } from '../../src/store/settlement-claim-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { SettlementSettingsRepository } from '../../src/store/settlement-settings-repository';
import { SplitRepository } from '../../src/store/split-repository';
import { orderKey, TransactionRepository } from '../../src/store/transaction-repository';
import { testStore } from '../support/servers';
import { storedPaidUpiOrder } from '../support/stored-orders';

const MASTER_KEY = 'd'.repeat(64);
const DAY = Date.parse('2026-11-01T18:30:00Z'); // Monday 2026-11-02 00:00 IST, settling Tuesday 2026-11-03
const DATE = '2026-11-03';

/**
 * A settlement's claims racing what else writes the same orders, on the real store: a split
 * recorded between the claim's read and its write, a crash in the middle of inserting lines, a
 * concurrent settlement claiming part of a page, adjustments found by their index, and a claim
 * attempt that comes late, after the totals.
 */
describe('store: settlement claims against splits, crashes, other settlements and late attempts', function () {
  this.timeout(120_000);
  let client: MongoClient;
  let db: Db;
  const cipher = new PayerDataCipher(MASTER_KEY);
  let n = 0;
  const merchant = () => `race${++n}${randomBytes(3).toString('hex')}`;

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_claim_races_${randomBytes(3).toString('hex')}`);
    await ensureIndexes(db);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  const scope = (merchantIdentifier: string, settlementId = `settlement:${merchantIdentifier}:${DATE}`): ClaimScope => ({
    settlementId,
    merchantIdentifier,
    settlementDate: DATE,
    from: new Date(DAY),
    to: new Date(DAY + 86_400_000),
    plan: DEFAULT_FEE_PLAN,
  });
  const paid = async (merchantIdentifier: string, orderId: string, amountPaise: number, at = new Date(DAY + 3_600_000)) => {
    const doc = storedPaidUpiOrder(cipher, { merchantIdentifier, orderId, amountPaise, at });
    await db.collection('transactions').insertOne(doc as never);
    return doc;
  };
  const linesOf = (txnId: string) => db.collection('settlement_lines').find({ txnId }).toArray();

  /** A store whose settlement_lines insertMany inserts only the first line, then fails as a crashed worker would, once. */
  function crashingLinesDb(): Db {
    let crashed = false;
    const wrap = (c: Collection) =>
      new Proxy(c, {
        get(target, prop) {
          if (prop === 'insertMany' && !crashed)
            return async (docs: Document[]) => {
              crashed = true;
              await target.insertOne(docs[0]!);
              throw new Error('worker crashed after inserting one line');
            };
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    return new Proxy(db, {
      get(target, prop) {
        if (prop === 'collection')
          return (name: string) => (name === 'settlement_lines' ? wrap(target.collection(name)) : target.collection(name));
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  }

  /** A TransactionRepository whose first settlement read runs `between` right after it read (the race window). */
  function racingReads(between: () => Promise<void>): TransactionRepository {
    const transactions = new TransactionRepository(db, MASTER_KEY);
    const read = transactions.findMatching.bind(transactions);
    let raced = false;
    transactions.findMatching = async (...args) => {
      const rows = await read(...args);
      if (!raced) {
        raced = true;
        await between();
      }
      return rows;
    };
    return transactions;
  }

  describe('a split recorded while the claim runs is settled as recorded', () => {
    const splitOf = (master: string, a: string, b: string): TransactionSplit => ({
      masterMerchantIdentifier: master,
      shares: [
        { merchantIdentifier: master, amountPaise: 4_000 },
        { merchantIdentifier: a, amountPaise: 3_500 },
        { merchantIdentifier: b, amountPaise: 2_500 },
      ],
      at: new Date(DAY + 7_200_000),
    });
    const shares = async (txnId: string) =>
      Object.fromEntries((await linesOf(txnId)).map((l) => [l.merchantIdentifier as string, l.amountPaise as number]));

    it('split between the page read and the claim: the master gets its share, each seller theirs (parked for it)', async () => {
      const [master, a, b] = [merchant(), merchant(), merchant()];
      const t = await paid(master, 'split-race', 10_000);
      const splits = new SplitRepository(db);
      const transactions = racingReads(async () => {
        assert.equal(await splits.recordSplit(orderKey(t), t.txnId, splitOf(master, a, b)), 'recorded');
      });
      const claims = new SettlementClaimRepository(db, transactions);
      assert.deepEqual(await claims.claimSales(scope(master), null, 1000), { lines: 3, next: null });
      assert.deepEqual(await shares(t.txnId), { [master]: 4_000, [a]: 3_500, [b]: 2_500 });
      const parked = await db.collection('settlement_lines').find({ txnId: t.txnId, merchantIdentifier: a }).toArray();
      assert.equal(parked[0]!.settlementId, `pending:${a}`);
      // Once claimed, the order can no longer be split (2075, "already being settled").
      assert.equal(await splits.recordSplit(orderKey(t), t.txnId, splitOf(master, b, a)), 'alreadySettled');
    });

    it('the same race, a crash after inserting part of the lines, then the retry: nobody is paid twice', async () => {
      const [master, a, b] = [merchant(), merchant(), merchant()];
      const t = await paid(master, 'split-crash', 10_000);
      const splits = new SplitRepository(db);
      const transactions = racingReads(async () => {
        assert.equal(await splits.recordSplit(orderKey(t), t.txnId, splitOf(master, a, b)), 'recorded');
      });
      const crashing = new SettlementClaimRepository(crashingLinesDb(), transactions);
      await assert.rejects(crashing.claimSales(scope(master), null, 1000), /worker crashed/);
      assert.equal((await linesOf(t.txnId)).length, 1, 'one line in before the crash');
      // The retried page (a new attempt: its own repository) finds the sale already its own.
      const retry = new SettlementClaimRepository(db, new TransactionRepository(db, MASTER_KEY));
      await retry.claimSales(scope(master), null, 1000);
      assert.deepEqual(await shares(t.txnId), { [master]: 4_000, [a]: 3_500, [b]: 2_500 });
      const total = (await linesOf(t.txnId)).reduce((sum, l) => sum + (l.amountPaise as number), 0);
      assert.equal(total, 10_000, 'the lines add up to the order, once');
    });
  });

  it('a page whose claim lost a row to another settlement resumes after its last row: no tied sale is skipped', async () => {
    const m = merchant();
    const at = new Date(DAY + 5 * 3_600_000);
    const docs = [];
    for (let i = 0; i < 4; i++) docs.push(await paid(m, `tie-${i}`, 1_000 + i, at));
    const byTxn = [...docs].sort((x, y) => (x.txnId < y.txnId ? -1 : 1));
    const other = `settlement:${m}:2026-11-04`;
    // Between this page's read and its claim, the merchant's next settlement claims the first tied sale.
    const transactions = racingReads(async () => {
      await db.collection('transactions').updateOne({ txnId: byTxn[0]!.txnId }, { $set: { saleSettlementId: other } });
    });
    const claims = new SettlementClaimRepository(db, transactions);
    let page = await claims.claimSales(scope(m), null, 2);
    assert.equal(page.lines, 1);
    while (page.next) page = await claims.claimSales(scope(m), page.next, 2);
    const mine = await db
      .collection('transactions')
      .countDocuments({ merchantIdentifier: m, saleSettlementId: `settlement:${m}:${DATE}` });
    assert.equal(mine, 3, 'every sale the other settlement did not take');
  });

  describe('adjustments come from their index (adjustedAt), not from every order updated', () => {
    it('a refund settled by the refund activity is found; the merchant orders without one are never read', async () => {
      const m = merchant();
      for (let i = 0; i < 50; i++) await paid(m, `plain-${i}`, 5_000, new Date(DAY + i * 60_000));
      const t = await paid(m, 'refunded', 5_000);
      await db.collection('transactions').updateOne(
        { _id: orderKey(t) as never },
        {
          $push: {
            refunds: { merchantRefId: 'r1', amountPaise: 2_000, rrn: null, status: 'PENDING', createdAt: new Date(DAY) },
          } as never,
          $set: { refundReservedPaise: 2_000 },
        },
      );
      const transactions = new TransactionRepository(db, MASTER_KEY);
      const refunds = createRefundActivities({
        transactions,
        bank: undefined as never,
        now: () => new Date(DAY + 4 * 3_600_000),
        temporal: undefined as never,
        taskQueue: 'unused',
        webhookBatchWindowMs: 0,
      });
      const recorded = await refunds.recordRefundOutcome({
        ...t,
        merchantRefId: 'r1',
        answer: { approved: true, rrn: '9' } as never,
      });
      assert.equal(recorded.applied, true);
      // Every order of the merchant was written in the window; only the refunded one holds an adjustment.
      await db
        .collection('transactions')
        .updateMany({ merchantIdentifier: m }, { $set: { updatedAt: new Date(DAY + 3_600_000) } });
      let read = 0;
      const find = transactions.findMatching.bind(transactions);
      transactions.findMatching = async (...args) => {
        const rows = await find(...args);
        read += rows.length;
        return rows;
      };
      const claims = new SettlementClaimRepository(db, transactions);
      assert.deepEqual(await claims.claimAdjustments(scope(m), null, 1000), { lines: 1, next: null });
      assert.equal(read, 1, 'the adjustments page read the refunded order alone');
      const [line] = await linesOf(t.txnId);
      assert.equal(line!.action, 'REFUND');
    });

    it('a chargeback stored before adjustedAt existed is found once the start-up backfill ran', async () => {
      const m = merchant();
      const t = await paid(m, 'old-chargeback', 7_000);
      const raisedAt = new Date(DAY + 6 * 3_600_000);
      await db
        .collection('transactions')
        .updateOne(
          { _id: orderKey(t) as never },
          { $set: { chargeback: { amountPaise: 7_000, raisedAt, revertedAt: null }, updatedAt: raisedAt } },
        );
      assert.ok((await backfillAdjustedAt(db)) >= 1);
      assert.equal(await backfillAdjustedAt(db), 0, 'idempotent');
      const claims = new SettlementClaimRepository(db, new TransactionRepository(db, MASTER_KEY));
      assert.deepEqual(await claims.claimAdjustments(scope(m), null, 1000), { lines: 1, next: null });
      assert.equal((await linesOf(t.txnId))[0]!.action, 'CHARGEBACK');
    });
    it('a refund an old worker recorded without adjustedAt after the start-up backfill is still found', async () => {
      const m = merchant();
      const t = await paid(m, 'old-worker-refund', 6_000);
      // This release's first start-up (its backfill and marker) falls in the settlement's lookback.
      await db.collection('migrations').deleteOne({ _id: ADJUSTED_AT_MARKER as never });
      assert.ok(await migrateOnce(db, ADJUSTED_AT_MARKER, new Date(DAY), () => backfillAdjustedAt(db)));
      const settledAt = new Date(DAY + 5 * 3_600_000);
      await db.collection('transactions').updateOne(
        { _id: orderKey(t) as never },
        {
          $push: {
            refunds: {
              merchantRefId: 'r1',
              amountPaise: 1_500,
              rrn: '7',
              status: 'SUCCESS',
              createdAt: settledAt,
              completedAt: settledAt,
            },
          } as never,
          $set: { updatedAt: settledAt },
        },
      );
      const claims = new SettlementClaimRepository(db, new TransactionRepository(db, MASTER_KEY));
      assert.deepEqual(await claims.claimAdjustments(scope(m), null, 1000), { lines: 1, next: null });
      const [line] = await linesOf(t.txnId);
      assert.deepEqual([line!.action, line!.amountPaise], ['REFUND', 1_500]);
      await db.collection('migrations').deleteOne({ _id: ADJUSTED_AT_MARKER as never });
    });
  });

  describe('claim pages and totals are fenced on the settlement', () => {
    let clock = DAY + 2 * 86_400_000;
    const activities = (settlementStore = new SettlementRepository(db)) => {
      const transactions = new TransactionRepository(db, MASTER_KEY);
      return createSettlementActivities({
        settlementStore,
        settlementAttention: new SettlementAttentionRepository(db),
        payoutAccountSeal: new PayoutAccountSeal(MASTER_KEY),
        settlementClaims: new SettlementClaimRepository(db, transactions),
        settlementSettings: new SettlementSettingsRepository(db),
        payouts: new SandboxBankConnector(),
        settlementAccount: async () => ({ ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Race' }),
        merchants: new MerchantRepository(db, MASTER_KEY),
        settlementCalendar: { days: 1, holidays: new Set() },
        defaultFeePlan: DEFAULT_FEE_PLAN,
        now: () => new Date(clock),
        temporal: undefined as unknown as Client,
        taskQueue: 'unused',
      });
    };

    it('a claim attempt that comes after the totals adds no line and claims nothing', async () => {
      const m = merchant();
      const act = activities();
      const input = { merchantIdentifier: m, settlementDate: DATE };
      await paid(m, 'early', 3_000);
      await act.openSettlement(input);
      assert.equal((await act.claimSettlementPage({ ...input, phase: 'sales', cursor: null })).lines, 1);
      const totals = await act.totalSettlement(input);
      assert.equal(totals.netPaise, 3_000);
      // A sale the late attempt would find, then the late attempt itself.
      const late = await paid(m, 'late', 4_000);
      assert.deepEqual(await act.claimSettlementPage({ ...input, phase: 'sales', cursor: null }), { lines: 0, next: null });
      assert.equal((await linesOf(late.txnId)).length, 0);
      const stored = await db.collection('transactions').findOne({ txnId: late.txnId });
      assert.equal(stored!.saleSettlementId, undefined, 'left for the next settlement');
    });

    it('a split share parked after the totals stays parked, even for an attempt Temporal gave up on while it adopted', async () => {
      const m = merchant();
      const id = `settlement:${m}:${DATE}`;
      const input = { merchantIdentifier: m, settlementDate: DATE };
      const share = (txnId: string, amountPaise: number) =>
        db.collection('settlement_lines').insertOne({
          _id: `SALE:${txnId}:${m}`,
          settlementId: `pending:${m}`,
          merchantIdentifier: m,
          txnId,
          orderId: txnId,
          action: 'SALE',
          txnDate: new Date(DAY),
          amountPaise,
          feePaise: 0,
          taxPaise: 0,
          settlementAmountPaise: amountPaise,
          settlementDate: 'pending',
        } as never);
      await share('early-share', 2_000);
      await activities().openSettlement(input);
      // Attempt 1 stalls before its adoption write: its heartbeat times out, attempt 2 totals the
      // settlement, a new share is parked for the merchant, then attempt 1's write goes on.
      const stalling = new SettlementRepository(db);
      const adopt = stalling.adoptParkedLines.bind(stalling);
      stalling.adoptParkedLines = async (...args: Parameters<typeof adopt>) => {
        clock += CLAIM_LEASE_MS + 1;
        assert.equal((await activities().totalSettlement(input)).netPaise, 2_000);
        await share('late-share', 5_000);
        return adopt(...args);
      };
      await activities(stalling).totalSettlement(input);
      const late = await db.collection('settlement_lines').findOne({ txnId: 'late-share' });
      assert.equal(late!.settlementId, `pending:${m}`, 'left for the next settlement, not stranded in a totalled one');
      const s = await db.collection('settlements').findOne({ _id: id as never });
      assert.equal(s!.netPaise, 2_000);
      assert.equal(await db.collection('settlement_lines').countDocuments({ settlementId: id }), 1);
    });

    it('totals wait while a claim page holds its lease, and go on once it ran out', async () => {
      const m = merchant();
      const act = activities();
      const input = { merchantIdentifier: m, settlementDate: DATE };
      await act.openSettlement(input);
      const fence = new SettlementClaimRepository(db, new TransactionRepository(db, MASTER_KEY)).fence;
      assert.ok(await fence.lease(`settlement:${m}:${DATE}`, new Date(clock)));
      await assert.rejects(act.totalSettlement(input), /still holds its lease/);
      clock += CLAIM_LEASE_MS + 1;
      await act.totalSettlement(input);
      assert.equal(await fence.lease(`settlement:${m}:${DATE}`, new Date(clock)), null, 'no claim after the totals');
    });
  });
});
