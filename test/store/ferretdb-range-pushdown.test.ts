import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db, type Document } from 'mongodb';
import type { Transaction } from '../../src/domain/transaction';
import { ensureIndexes } from '../../src/store/mongo';
import { DailyFiguresRepository } from '../../src/store/daily-figures-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { WebhookRepository } from '../../src/store/webhook-repository';
import { MandateRepository } from '../../src/store/mandate-repository';
import { PaymentLinkRepository } from '../../src/store/payment-link-repository';
import { transactionKindFilter } from '../../src/domain/transaction-kind';
import { assertIndexSearch, explainFind, sqlitePlan } from '../support/query-plans';
import { testStore } from '../support/servers';

/**
 * The store's plans for the reads transaction-repository.ts makes, captured from the driver as the
 * repository sends them and explained as they are: an index search of the index the gateway
 * creates for each, with no table scan, and for ledger and bulk pages rows read in the index's
 * order (no sort of the matches before skip and limit).
 */
const MERCHANT = 'explain-merchant';
const DAY = Date.UTC(2026, 0, 1) - 5.5 * 3_600_000;

describe('store: the range reads the gateway makes are index searches', function () {
  let client: MongoClient;
  let db: Db;
  let repo: TransactionRepository;
  const sent: Document[] = [];

  before(async function () {
    const store = await testStore();
    client = await new MongoClient(store.uri, { monitorCommands: true }).connect();
    db = client.db(`${store.dbName}_plans_${randomBytes(3).toString('hex')}`);
    client.on('commandStarted', (e) => {
      if (e.databaseName === db.databaseName && (e.commandName === 'find' || e.commandName === 'update')) sent.push(e.command);
    });
    await ensureIndexes(db);
    await db.collection('transactions').insertMany(Array.from({ length: 200 }, (_, i) => doc(i)));
    repo = new TransactionRepository(db, randomBytes(32).toString('hex'));
  });

  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  /** The commands `run` sends (after clearing what came before). */
  async function capture(run: () => Promise<unknown>): Promise<Document[]> {
    sent.length = 0;
    await run();
    return [...sent];
  }

  it('reads a ledger page from merchant_created, in its order', async () => {
    const [find] = await capture(() =>
      repo
        .ledgerPage({
          merchantIdentifier: MERCHANT,
          from: new Date(DAY),
          until: new Date(DAY + 86_400_000),
          statuses: ['Success', 'Pending'],
          includeDelayedSuccess: false,
          skip: 20,
          limit: 11,
        })
        .toArray(),
    );
    assertIndexSearch(await explainFind(db, find!), 'merchant_created', { ordered: true });
  });

  it('reads a bulk page from merchant_success, in its order', async () => {
    const [find] = await capture(() =>
      repo
        .bulkPage({
          merchantIdentifier: MERCHANT,
          from: new Date(DAY),
          until: new Date(DAY + 86_400_000),
          statuses: ['Success', 'PartialRefund'],
          skip: 5,
          limit: 500,
        })
        .toArray(),
    );
    assertIndexSearch(await explainFind(db, find!), 'merchant_success', { ordered: true });
  });

  it('reads a dashboard search page after its keyset cursor from merchant_created, in its order', async () => {
    const [find] = await capture(() =>
      repo
        .searchPage({
          merchantIdentifier: MERCHANT,
          from: new Date(DAY),
          until: new Date(DAY + 86_400_000),
          after: { createdAt: new Date(DAY + 50 * 60_000), txnId: 'T50' },
          where: [{ status: 'Success' }, transactionKindFilter('qr')],
          limit: 51,
        })
        .toArray(),
    );
    assertIndexSearch(await explainFind(db, find!), 'merchant_created', { ordered: true });
  });

  it("rebuilds a day's figures from merchant_created, in its order; the overview reads its days by _id", async () => {
    const figures = new DailyFiguresRepository(db);
    const rebuilt = await capture(() => figures.rebuild(MERCHANT, new Date(DAY), new Date(DAY + 86_400_000)));
    const find = rebuilt.find((c) => c.find === 'transactions')!;
    assertIndexSearch(await explainFind(db, find), 'merchant_created', { ordered: true });
    const [days] = await capture(() => figures.ofDays(MERCHANT, ['2026-01-01', '2026-01-02']));
    assert.equal(days!.find, 'daily_figures');
    assertIndexSearch(await explainFind(db, days!), '_id_', { ordered: false });
  });

  it("reads a merchant's failed webhook deliveries from merchant_created of webhook_deliveries", async () => {
    await new WebhookRepository(db, randomBytes(32).toString('hex')).failedBetween(
      MERCHANT,
      new Date(DAY),
      new Date(DAY + 86_400_000),
      101,
    );
    const find = sent.at(-1)!;
    assert.equal(find.find, 'webhook_deliveries');
    assertIndexSearch(await explainFind(db, find), 'merchant_created', { ordered: true });
  });

  it("reads a merchant's mandates and payment links of a period from their merchant_created", async () => {
    for (const [coll, read] of [
      [
        'mandates',
        () =>
          new MandateRepository(db, randomBytes(32).toString('hex')).createdBetween(
            MERCHANT,
            new Date(DAY),
            new Date(DAY + 86_400_000),
            201,
          ),
      ],
      [
        'payment_links',
        () =>
          new PaymentLinkRepository(db, randomBytes(32).toString('hex')).createdBetween(
            MERCHANT,
            new Date(DAY),
            new Date(DAY + 86_400_000),
            201,
          ),
      ],
    ] as const) {
      const [find] = await capture(read);
      assert.equal(find!.find, coll);
      assertIndexSearch(await explainFind(db, find!), 'merchant_created', { ordered: true });
    }
  });

  it("reads the pending orders of the sweep from sweep_lane_due, each lane in the index's order", async () => {
    const finds = await capture(() => repo.findPendingSince(new Date(DAY + 86_400_000), 100));
    // The unswept lane, then (it holds fewer than the limit here) the swept one.
    assert.deepEqual(
      finds.map((f) => (f.filter as { sweepLane: string }).sweepLane),
      ['unswept', 'swept'],
    );
    for (const find of finds) assertIndexSearch(await explainFind(db, find), 'sweep_lane_due', { ordered: true });
  });

  it("continues a walk's ledger and bulk pages after a keyset from merchant_created and merchant_success, in their order", async () => {
    const after = { at: new Date(DAY + 50 * 60_000), txnId: 'T50' };
    const range = {
      merchantIdentifier: MERCHANT,
      from: new Date(DAY),
      until: new Date(DAY + 86_400_000),
      skip: 0,
      limit: 11,
      after,
    };
    const [ledger] = await capture(() =>
      repo.ledgerPage({ ...range, statuses: ['Success'], includeDelayedSuccess: false }).toArray(),
    );
    assertIndexSearch(await explainFind(db, ledger!), 'merchant_created', { ordered: true });
    const [bulk] = await capture(() => repo.bulkPage({ ...range, statuses: ['Success'] }).toArray());
    assertIndexSearch(await explainFind(db, bulk!), 'merchant_success', { ordered: true });
  });

  it("checks a walk's keyset against the merchant's writes since from merchant_updated", async () => {
    const [find] = await capture(() =>
      repo.writtenSince({
        merchantIdentifier: MERCHANT,
        field: 'createdAt',
        from: new Date(DAY),
        upTo: new Date(DAY + 3_600_000),
        since: new Date(DAY + 86_400_000),
      }),
    );
    assertIndexSearch(await explainFind(db, find!), 'merchant_updated', { ordered: true });
  });

  it('reads the CREATED mandates of the sweep from state_swept_created, and marks them by _id', async () => {
    const mandates = new MandateRepository(db, randomBytes(32).toString('hex'));
    const [find] = await capture(() => mandates.findCreatedBefore(new Date(DAY + 86_400_000), 100));
    // Only CREATED mandates are read; their order (sweptAt may be missing) is sorted in memory.
    assertIndexSearch(await explainFind(db, find!), 'state_swept_created', { ordered: false });
    const [update] = await capture(() => mandates.markSwept([{ merchantIdentifier: MERCHANT, orderId: 'm-1' }], new Date(DAY)));
    const filter = (update!.updates as { q: Document }[])[0]!.q;
    assertIndexSearch(await explainFind(db, { find: 'mandates', filter }), '_id_', { ordered: false });
  });

  it('reads a reconciliation batch by txnId from txnId_unique', async () => {
    const [find] = await capture(() => repo.findByTxnIds(['T1', 'T2', 'T3']));
    assertIndexSearch(await explainFind(db, find!), 'txnId_unique', { ordered: false });
  });

  it("finds a merchant's order by txnId from txnId_unique", async () => {
    const [find] = await capture(() => repo.findByTxnIdOfMerchant(MERCHANT, 'T7'));
    assertIndexSearch(await explainFind(db, find!), 'txnId_unique', { ordered: false });
  });

  it('finds the orders the sweep marks by _id', async () => {
    const [update] = await capture(() =>
      repo.markSwept(
        [
          { merchantIdentifier: MERCHANT, orderId: 'o-1' },
          { merchantIdentifier: MERCHANT, orderId: 'o-2' },
        ],
        new Date(DAY),
      ),
    );
    const filter = (update!.updates as { q: Document }[])[0]!.q;
    assertIndexSearch(await explainFind(db, { find: 'transactions', filter }), '_id_', { ordered: false });
  });

  it('reads the orders with a refund still pending from the multikey table of refund_status_swept_updated', async () => {
    const [find] = await capture(() => repo.findWithPendingRefundsSince(new Date(DAY + 86_400_000), 100));
    const explain = await explainFind(db, find!);
    const plan = sqlitePlan(explain);
    if (!plan) return assertIndexSearch(explain, 'refund_status_swept_updated', { ordered: false });
    // `refunds.status` lies inside an array: SQLite's own index holds one value per row, so the
    // patch keeps (_id, status) rows beside it and looks the documents up by _id.
    const shown = JSON.stringify(plan);
    assert.ok(
      plan.some((row) => /SEARCH _gateway_mk_\S+_refund_status_swept_updated USING COVERING INDEX \S+ \(v=\?\)/.test(row)),
      `expected a search of the multikey table, got ${shown}`,
    );
    assert.ok(
      plan.some((row) => /SEARCH \S+ USING INDEX \S+__id_ /.test(row)),
      `expected the documents by _id, got ${shown}`,
    );
    assert.ok(!plan.some((row) => /detail=SCAN /.test(row)), `expected no table scan, got ${shown}`);
  });
});

/** One stored transaction of the merchant, i-th of the day. */
function doc(i: number): Document {
  const createdAt = new Date(DAY + i * 60_000);
  const success = i % 3 !== 0;
  const t: Partial<Transaction> = {
    txnId: `T${i}`,
    merchantIdentifier: MERCHANT,
    orderId: `o-${i}`,
    amountPaise: 1_000 + i,
    status: success ? 'Success' : 'Pending',
    createdAt,
    updatedAt: createdAt,
    successAt: success ? new Date(createdAt.getTime() + 2000) : null,
    refunds: [],
    version: 2,
  };
  return { _id: `${MERCHANT}:o-${i}`, ...t };
}
