import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { testStore } from '../support/servers';

/**
 * What devstack/ferretdb/gateway.patch gives the embedded store: `_id` lookups answered from the
 * index, also when the filter holds more than `_id`, with the extra conditions still deciding the
 * result; and conditional updates that are atomic under concurrency.
 */
interface Doc {
  _id: string;
  txnId: string;
  status: string;
  n: number;
}

const SEEDED = 3000;

describe('store: lookups by _id use the index', function () {
  let client: MongoClient;
  let coll: Collection<Doc>;

  before(async function () {
    this.timeout(120_000);
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    coll = client.db(store.dbName).collection<Doc>(`pushdown_${randomBytes(4).toString('hex')}`);
    const docs = Array.from({ length: SEEDED }, (_, i) => ({
      _id: `m:${i}`,
      txnId: `T${i}`,
      status: i % 2 ? 'Pending' : 'Success',
      n: i,
    }));
    for (let i = 0; i < docs.length; i += 500) await coll.insertMany(docs.slice(i, i + 500));
  });

  after(async () => {
    await coll?.drop().catch(() => undefined);
    await client?.close();
  });

  it('plans a find by _id as an index search', async () => {
    assertUsesIdIndex(await coll.find({ _id: 'm:10' }).explain());
  });

  it('plans a find by _id plus other fields as an index search', async () => {
    assertUsesIdIndex(await coll.find({ _id: 'm:11', txnId: 'T11', status: { $in: ['Pending'] } }).explain());
  });

  it('finds by _id with extra conditions exactly as the conditions say', async () => {
    assert.deepEqual(await coll.findOne({ _id: 'm:11', status: 'Pending' }), {
      _id: 'm:11',
      txnId: 'T11',
      status: 'Pending',
      n: 11,
    });
    assert.equal(await coll.findOne({ _id: 'm:11', status: 'Success' }), null);
    assert.equal(await coll.findOne({ _id: 'm:11', txnId: 'T12' }), null);
    assert.equal(await coll.countDocuments({ _id: 'm:12', n: { $gte: 12 } }), 1);
    assert.equal(await coll.countDocuments({ _id: 'm:12', n: { $gt: 12 } }), 0);
    assert.deepEqual(
      (await coll.find({ _id: { $in: ['m:1', 'm:2'] } }).toArray()).map((d) => d._id).sort(),
      ['m:1', 'm:2'],
      'an _id operator is not an equality and is not pushed down, but still answers',
    );
    assert.deepEqual(
      (await coll.find({ _id: 'm:3', $or: [{ status: 'Success' }, { n: 3 }] }).toArray()).map((d) => d._id),
      ['m:3'],
    );
  });

  it('updates by _id only when the extra conditions hold', async () => {
    const refused = await coll.findOneAndUpdate(
      { _id: 'm:21', txnId: 'T21', status: { $in: ['Success'] } },
      { $set: { status: 'Failure' } },
      { returnDocument: 'after' },
    );
    assert.equal(refused, null);
    const applied = await coll.findOneAndUpdate(
      { _id: 'm:21', txnId: 'T21', status: { $in: ['Pending'] } },
      { $set: { status: 'Success' }, $inc: { n: 1000 } },
      { returnDocument: 'after' },
    );
    assert.deepEqual(applied, { _id: 'm:21', txnId: 'T21', status: 'Success', n: 1021 });

    assert.equal((await coll.updateOne({ _id: 'm:22', n: { $gte: 23 } }, { $inc: { n: 1 } })).matchedCount, 0);
    assert.equal((await coll.updateOne({ _id: 'm:22', n: { $gte: 22 } }, { $inc: { n: 1 } })).modifiedCount, 1);
    assert.equal((await coll.findOne({ _id: 'm:22' }))?.n, 23);
    assert.equal((await coll.findOne({ _id: 'm:20' }))?.n, 20, 'a neighbour is untouched');
  });

  it('applies exactly one of many concurrent conditional updates of one document', async () => {
    const clients = await Promise.all(
      Array.from({ length: 4 }, () => new MongoClient(client.options.hosts.map((h) => `mongodb://${h}`)[0]!).connect()),
    );
    try {
      const colls = clients.map((c) => c.db(coll.dbName).collection<Doc>(coll.collectionName));
      const won = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          colls[i % colls.length]!.findOneAndUpdate({ _id: 'm:40', n: 40 }, { $inc: { n: 1 }, $set: { status: `winner-${i}` } }),
        ),
      );
      assert.equal(won.filter((d) => d !== null).length, 1);
      assert.equal((await coll.findOne({ _id: 'm:40' }))?.n, 41);
      const modified = await Promise.all(
        Array.from({ length: 20 }, (_, i) => colls[i % colls.length]!.updateOne({ _id: 'm:41', n: 41 }, { $inc: { n: 1 } })),
      );
      assert.equal(
        modified.reduce((sum, r) => sum + r.modifiedCount, 0),
        1,
      );
      assert.equal((await coll.findOne({ _id: 'm:41' }))?.n, 42);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('deletes by _id only when the extra conditions hold', async () => {
    assert.equal((await coll.deleteOne({ _id: 'm:31', status: 'Success' })).deletedCount, 0);
    assert.equal((await coll.deleteOne({ _id: 'm:31', status: 'Pending' })).deletedCount, 1);
    assert.equal(await coll.findOne({ _id: 'm:31' }), null);
    assert.equal(await coll.countDocuments({}), SEEDED - 1);
  });
});

/** FerretDB reports SQLite's query plan; MongoDB (MONGODB_URI) its winning plan. */
function assertUsesIdIndex(explain: Document): void {
  const sqlitePlan = (explain.queryPlanner as { Plan?: string[] } | undefined)?.Plan;
  if (sqlitePlan) {
    assert.ok(
      sqlitePlan.some((row) => /SEARCH .* USING INDEX \S+__id_ /.test(row)),
      `expected an index search, got ${JSON.stringify(sqlitePlan)}`,
    );
    assert.ok(!sqlitePlan.some((row) => /detail=SCAN /.test(row)), `expected no table scan, got ${JSON.stringify(sqlitePlan)}`);
    return;
  }
  const plan = JSON.stringify(explain.queryPlanner?.winningPlan ?? explain);
  assert.match(plan, /IDHACK|EXPRESS_IXSCAN|IXSCAN/, `expected an _id index plan, got ${plan}`);
}
