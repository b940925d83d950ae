import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db, type Document } from 'mongodb';
import { PayerDataCipher } from '../../src/domain/payer-data';
import { DEFAULT_FEE_PLAN } from '../../src/domain/settlement-fees';
import { ADJUSTED_AT_MARKER, backfillMerchantAdjustedAt } from '../../src/store/migrations/settlement-adjusted-at';
import { ensureIndexes } from '../../src/store/mongo';
import {
  BACKFILL_PAGES_PER_CLAIM,
  CLAIMS_PER_COMMAND,
  SettlementClaimRepository,
  type ClaimScope,
} from '../../src/store/settlement-claim-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { assertIndexSearch, explainFind } from '../support/query-plans';
import { testStore } from '../support/servers';
import { storedPaidUpiOrder } from '../support/stored-orders';

const MASTER_KEY = 'c'.repeat(64);
const MERCHANT = 'claims-merchant';
const DAY = Date.parse('2026-11-01T18:30:00Z'); // Monday 2026-11-02 00:00 IST
// More unclaimed sales on one page than the embedded store has pooled connections (100).
const SALES = 150;

/**
 * A settlement's claims against the real store. On FerretDB 1.24 (SQLite) an update command keeps
 * every matched statement's read open until the command ends, one of its 100 pooled connections
 * each: a page of 100 or more unclaimed sales sent as one command waited forever (the settlement
 * bench's first page never returned). The claims now go CLAIMS_PER_COMMAND a command.
 */
describe('store: a settlement claims a page of many sales', function () {
  this.timeout(120_000);
  let client: MongoClient;
  let db: Db;
  let claims: SettlementClaimRepository;
  const sent: Document[] = [];
  const claimCommands: Document[] = [];

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri, { monitorCommands: true }).connect();
    db = client.db(`${store.dbName}_claims_${randomBytes(3).toString('hex')}`);
    client.on('commandStarted', (e) => {
      if (e.databaseName !== db.databaseName) return;
      if (e.commandName === 'find') sent.push(e.command);
      if (e.commandName === 'update' && e.command.update === 'transactions') claimCommands.push(e.command);
    });
    await ensureIndexes(db);
    const cipher = new PayerDataCipher(MASTER_KEY);
    const docs = Array.from({ length: SALES }, (_, i) =>
      storedPaidUpiOrder(cipher, {
        merchantIdentifier: MERCHANT,
        orderId: `sale-${i}`,
        amountPaise: 10_000,
        at: new Date(DAY + i * 60_000),
      }),
    );
    await db.collection('transactions').insertMany(docs as never[], { ordered: false });
    claims = new SettlementClaimRepository(db, new TransactionRepository(db, MASTER_KEY));
  });

  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  const scope = (settlementId: string): ClaimScope => ({
    settlementId,
    merchantIdentifier: MERCHANT,
    settlementDate: '2026-11-03',
    from: new Date(DAY),
    to: new Date(DAY + 86_400_000),
    plan: DEFAULT_FEE_PLAN,
  });

  it(`claims ${SALES} sales in one page (more than 100, in commands of ${CLAIMS_PER_COMMAND}), each once`, async () => {
    assert.ok(CLAIMS_PER_COMMAND < 100, 'a command stays below the embedded store pool of 100 connections');
    claimCommands.length = 0;
    const first = await claims.claimSales(scope('settlement:claims-merchant:2026-11-03'), null, 1000);
    assert.deepEqual(first, { lines: SALES, next: null });
    assert.deepEqual(
      claimCommands.map((c) => (c.updates as unknown[]).length),
      Array.from({ length: Math.ceil(SALES / CLAIMS_PER_COMMAND) }, (_, i) =>
        Math.min(CLAIMS_PER_COMMAND, SALES - i * CLAIMS_PER_COMMAND),
      ),
    );
    const txns = db.collection('transactions');
    assert.equal(await txns.countDocuments({ saleSettlementId: 'settlement:claims-merchant:2026-11-03' }), SALES);
    assert.equal(
      await db.collection('settlement_lines').countDocuments({ settlementId: 'settlement:claims-merchant:2026-11-03' }),
      SALES,
    );

    // A retried page holds the same sales and inserts no line twice; another settlement gets none.
    assert.deepEqual(await claims.claimSales(scope('settlement:claims-merchant:2026-11-03'), null, 1000), first);
    assert.deepEqual(await claims.claimSales(scope('settlement:claims-merchant:2026-11-04'), null, 1000), {
      lines: 0,
      next: null,
    });
    assert.equal(await db.collection('settlement_lines').countDocuments({}), SALES);
  });

  // What the store reads for each claim page and each claim, explained as the repository sent it:
  // the merchant's window from its index, never the store's other merchants (bench:settlement), and
  // for adjustments only the orders that have one (adjustedAt), never every order updated since.
  it('reads the sales and adjustments pages from merchant_success and merchant_adjusted in their order, claims by txnId_unique', async () => {
    sent.length = 0;
    await claims.claimSales(scope('settlement:claims-merchant:2026-11-05'), null, 1000);
    await claims.claimAdjustments(scope('settlement:claims-merchant:2026-11-05'), null, 1000);
    const finds = sent.filter((c) => c.find === 'transactions');
    const salesPage = finds.find((c) => (c.filter as Document).successAt !== undefined)!;
    const adjustmentsPage = finds.find((c) => ((c.filter as Document).adjustedAt as Document | undefined)?.$gte !== undefined)!;
    assertIndexSearch(await explainFind(db, salesPage), 'merchant_success', { ordered: true });
    assertIndexSearch(await explainFind(db, adjustmentsPage), 'merchant_adjusted', { ordered: true });
    const update = claimCommands[0]!; // the first test's first command of claims
    const claim = (update.updates as { q: Document }[])[0]!.q;
    assertIndexSearch(await explainFind(db, { find: 'transactions', filter: claim }), 'txnId_unique', { ordered: false });
  });

  // A merchant's day of a million orders: the adjustments phase once read every order the merchant
  // wrote in the lookback (to fill in adjustedAt an old worker left out) in one query with no
  // heartbeat, which outlived the claim page's heartbeat timeout and was retried on top of itself.
  describe('the adjustments phase reads by its adjustments, not by the merchant orders', () => {
    const txns = () => db.collection('transactions');
    const marker = (finishedAt: Date) =>
      db
        .collection<{ _id: string; finishedAt: Date }>('migrations')
        .replaceOne({ _id: ADJUSTED_AT_MARKER }, { finishedAt }, { upsert: true });
    const refund = (at: Date) => ({
      merchantRefId: 'r1',
      amountPaise: 500,
      rrn: '1',
      status: 'SUCCESS',
      createdAt: at,
      completedAt: at,
    });
    const at = new Date(DAY + 2 * 3_600_000);
    const adjusted = ['sale-10', 'sale-20', 'sale-30'];

    before(async () => {
      // Every order of the merchant written in the lookback; three refunded as this release records it,
      // one by a worker of the release before adjustedAt.
      await txns().updateMany({ merchantIdentifier: MERCHANT }, { $set: { updatedAt: at } });
      for (const orderId of adjusted)
        await txns().updateOne({ merchantIdentifier: MERCHANT, orderId }, { $set: { refunds: [refund(at)], adjustedAt: at } });
      await txns().updateOne({ merchantIdentifier: MERCHANT, orderId: 'sale-40' }, { $set: { refunds: [refund(at)] } });
    });
    after(() => db.collection('migrations').deleteOne({ _id: ADJUSTED_AT_MARKER as never }));

    it('upgraded before the lookback: one indexed query of the adjusted orders, none of the orders written', async () => {
      await marker(new Date(DAY - 86_400_000));
      sent.length = 0;
      const page = await claims.claimAdjustments(scope('settlement:claims-merchant:2026-11-06'), null, 1000);
      const finds = sent.filter((c) => c.find === 'transactions');
      assert.equal(finds.length, 1, `one read of the transactions: ${JSON.stringify(finds.map((f) => f.filter))}`);
      assert.ok(((finds[0]!.filter as Document).adjustedAt as Document).$gte, 'by adjustedAt');
      assertIndexSearch(await explainFind(db, finds[0]!), 'merchant_adjusted', { ordered: true });
      for (const f of sent.filter((c) => c.find !== 'transactions'))
        assert.ok((f.filter as Document)._id !== undefined, `${f.find} is read by _id: ${JSON.stringify(f.filter)}`);
      // The old worker's refund waits: an upgrade that old is drained (docs/operators/settlements.md, Limits).
      assert.deepEqual(page, { lines: adjusted.length, next: null });
    });

    it('upgraded inside the lookback: the old worker refund is found, the orders written read a bounded page at a time in index order', async () => {
      await marker(new Date(DAY + 3_600_000));
      sent.length = 0;
      const page = await claims.claimAdjustments(scope('settlement:claims-merchant:2026-11-07'), null, 1000);
      const writes = sent.filter((c) => c.find === 'transactions' && (c.filter as Document).updatedAt !== undefined);
      assert.ok(writes.length >= 1);
      for (const f of writes) {
        assert.ok(typeof f.limit === 'number' && f.limit <= 1000, `a bounded page: ${JSON.stringify(f)}`);
        // Nothing the store would check document by document: it stops after the limit.
        assert.deepEqual(
          Object.keys(f.filter as Document).filter((k) => !['merchantIdentifier', 'updatedAt', '$and'].includes(k)),
          [],
        );
        assertIndexSearch(await explainFind(db, f), 'merchant_updated', { ordered: true });
      }
      // The three refunds are the previous settlement's: only the old worker's is left to claim.
      assert.deepEqual(page, { lines: 1, next: null });
      const found = await txns().findOne({ merchantIdentifier: MERCHANT, orderId: 'sale-40' });
      assert.deepEqual(found!.adjustedAt, at, 'filled in from its last write');
    });

    it('inside the lookback, a call fills in a bounded number of pages and hands on where it stopped', async () => {
      assert.ok(BACKFILL_PAGES_PER_CLAIM * 1000 <= 20_000, 'one adjustments call reads at most 20,000 orders');
      await marker(new Date(DAY + 3_600_000));
      // The last of the merchant's writes: the old worker's refund, after the 150 orders written at `at`.
      const later = new Date(at.getTime() + 60_000);
      await txns().updateOne(
        { merchantIdentifier: MERCHANT, orderId: 'sale-140' },
        { $set: { refunds: [refund(later)], updatedAt: later } },
      );
      let beats = 0;
      sent.length = 0;
      const first = await backfillMerchantAdjustedAt(db, MERCHANT, new Date(DAY), () => beats++, { pages: 2, pageSize: 40 });
      assert.equal(first.set, 0, 'sale-140 lies past the first 80 writes');
      assert.ok(first.next, 'stopped after two pages');
      assert.equal(beats, 2);
      const reads = sent.filter((c) => c.find === 'transactions');
      assert.deepEqual(
        reads.map((c) => c.limit),
        [40, 40],
      );
      let rest = await backfillMerchantAdjustedAt(db, MERCHANT, new Date(DAY), undefined, {
        after: first.next,
        pages: 2,
        pageSize: 40,
      });
      let set = rest.set;
      while (rest.next) {
        rest = await backfillMerchantAdjustedAt(db, MERCHANT, new Date(DAY), undefined, {
          after: rest.next,
          pages: 2,
          pageSize: 40,
        });
        set += rest.set;
      }
      assert.equal(set, 1, 'the old worker refund, filled in once');
      assert.deepEqual((await txns().findOne({ merchantIdentifier: MERCHANT, orderId: 'sale-140' }))!.adjustedAt, later);
    });
  });
});
