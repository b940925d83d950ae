import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection, type Db, type Document } from 'mongodb';
import { startFerretdb } from '../../src/devstack/ferretdb';
import { freePort } from '../../src/devstack/process';
import { ensureIndexes } from '../../src/store/mongo';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { testStore } from '../support/servers';
import { unpatchedFerretdbBinary } from '../support/unpatched-ferretdb';

/**
 * The refund sweep's `refunds.status` lies inside an array, which a SQLite expression index cannot
 * hold; the patch keeps a multikey table beside the gateway's refund_status_updated index
 * (gateway.patch, metadata/gateway_multikey.go). It must follow every write, be filled from what is
 * stored when the index comes later, go with the index, and appear in a store the unpatched
 * FerretDB wrote as soon as the patched one opens it.
 */
const DAY = Date.UTC(2026, 0, 1);
const LATER = new Date(DAY + 86_400_000);

describe('store: orders with a refund pending, found through a multikey table', function () {
  this.timeout(120_000);
  let client: MongoClient;
  let db: Db;

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_mk_${randomBytes(3).toString('hex')}`);
  });

  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it('follows inserts, updates and deletes', async () => {
    await ensureIndexes(db);
    const txns = db.collection('transactions');
    await txns.insertMany(Array.from({ length: 50 }, (_, i) => order(i, [])));
    const pending = () => pendingIds(db);
    assert.deepEqual(await pending(), []);

    await txns.updateOne({ _id: 'o1' } as Document, { $push: { refunds: refund('PENDING') } } as Document);
    await txns.updateOne({ _id: 'o2' } as Document, { $push: { refunds: refund('SUCCESS') } } as Document);
    assert.deepEqual(await pending(), ['o1']);

    await txns.updateOne({ _id: 'o1' } as Document, { $set: { 'refunds.0.status': 'SUCCESS' } });
    assert.deepEqual(await pending(), []);

    await txns.insertOne(order(100, [refund('SUCCESS'), refund('PENDING')]));
    await txns.replaceOne({ _id: 'o3' } as Document, order(3, [refund('PENDING')]));
    assert.deepEqual(await pending(), ['o100', 'o3']);

    await txns.deleteOne({ _id: 'o100' } as Document);
    await txns.updateMany({}, { $set: { refunds: [] } });
    assert.deepEqual(await pending(), []);
    await assertPlan(txns, /SEARCH _gateway_mk_/);
  });

  it('is filled from the stored orders when the index comes later, and goes with the index', async () => {
    const txns = db.collection('later');
    await txns.insertMany(Array.from({ length: 30 }, (_, i) => order(i, i % 10 === 0 ? [refund('PENDING')] : [])));
    await assertPlan(txns, /detail=SCAN /);
    await txns.createIndex({ 'refunds.status': 1, updatedAt: 1 }, { name: 'refund_status_updated', sparse: true });
    await assertPlan(txns, /SEARCH _gateway_mk_/);
    assert.deepEqual(await pendingIds(db, 'later'), ['o0', 'o10', 'o20']);

    await txns.dropIndex('refund_status_updated');
    await assertPlan(txns, /detail=SCAN /);
    assert.deepEqual(await pendingIds(db, 'later'), ['o0', 'o10', 'o20']);
  });

  it('appears in a store the unpatched FerretDB wrote, when the patched one opens it', async function () {
    if (process.env.MONGODB_URI) this.skip();
    const unpatched = unpatchedFerretdbBinary((line) => console.error(`      ${line}`));
    if (!unpatched) this.skip();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-store-upgrade-'));
    try {
      const start = async (binary?: string) =>
        startFerretdb({ port: await freePort(), dataDir: path.join(dir, 'data'), logDir: dir, binary });
      const old = await start(unpatched);
      let c = await new MongoClient(old.uri).connect();
      await ensureIndexes(c.db('upgrade'));
      await c
        .db('upgrade')
        .collection('transactions')
        .insertMany(Array.from({ length: 20 }, (_, i) => order(i, i % 5 === 0 ? [refund('PENDING')] : [])));
      await c.close();
      await old.process.stop();

      const patched = await start();
      c = await new MongoClient(patched.uri).connect();
      try {
        const txns = c.db('upgrade').collection('transactions');
        await assertPlan(txns, /SEARCH _gateway_mk_/);
        assert.deepEqual(await pendingIds(c.db('upgrade')), ['o0', 'o10', 'o15', 'o5']);
        await txns.updateOne({ _id: 'o0' } as Document, { $set: { 'refunds.0.status': 'SUCCESS' } });
        assert.deepEqual(await pendingIds(c.db('upgrade')), ['o10', 'o15', 'o5']);
      } finally {
        await c.close();
        await patched.process.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function order(i: number, refunds: Document[]): Document {
  return { _id: `o${i}`, txnId: `T${i}`, status: 'Success', updatedAt: new Date(DAY + i * 1000), refunds };
}

const refund = (status: string) => ({ merchantRefId: `r-${randomBytes(3).toString('hex')}`, status, amountPaise: 100 });

/** The refund sweep's answer (the repository's own query), as sorted _ids. */
async function pendingIds(db: Db, collection = 'transactions'): Promise<string[]> {
  if (collection === 'transactions') {
    const found = await new TransactionRepository(db, randomBytes(32).toString('hex')).findWithPendingRefundsSince(LATER, 100);
    return found.map((t) => t.txnId.replace('T', 'o')).sort();
  }
  const docs = await db
    .collection(collection)
    .find({ 'refunds.status': 'PENDING', updatedAt: { $lt: LATER } })
    .toArray();
  return docs.map((d) => String(d._id)).sort();
}

/** SQLite's plan of the refund sweep's filter matches `row` (FerretDB only; MongoDB passes). */
async function assertPlan(coll: Collection<Document>, row: RegExp): Promise<void> {
  const explain = await coll.db.command({
    explain: { find: coll.collectionName, filter: { 'refunds.status': 'PENDING', updatedAt: { $lt: LATER } } },
    verbosity: 'queryPlanner',
  });
  const plan = (explain.queryPlanner as { Plan?: string[] } | undefined)?.Plan;
  if (plan)
    assert.ok(
      plan.some((r) => row.test(r)),
      `expected ${String(row)} in ${JSON.stringify(plan)}`,
    );
}
