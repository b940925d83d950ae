import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { BSON, MongoClient, type Collection, type Document } from 'mongodb';
import { TRANSACTION_INDEXES } from '../../src/store/mongo';
import { mongoFilter, runQuery, type Doc, type Query } from '../support/query-reference';
import { ARRAY_FIELDS, randomDocs, randomQuery, rng, type ArrayField } from '../support/random-transactions';
import { testStore, testUnpatchedStore } from '../support/servers';

/**
 * The patched store's answers to the gateway's range reads (ledger, bulk, the pending sweep,
 * txnId lookups) over random documents equal MongoDB's semantics: a JavaScript reference's
 * (test/support/query-reference.ts), and FerretDB's own without our patch (which reads and filters
 * the whole table). Each scenario stores its documents in a collection with the gateway's indexes;
 * in the first no field holds an array (so every read the gateway makes is pushed down), in the
 * others some fields do, and the patch must notice and answer those reads another way.
 *
 * DIFF_SEED=<n> replays a run (the seed is in the title).
 */
const SEED = Number(process.env.DIFF_SEED ?? Math.floor(Math.random() * 1e9));
const SCENARIOS = 8;
const DOCS = 300;
const QUERIES = 70;

describe(`store: the patched store's range reads answer as MongoDB does (DIFF_SEED=${SEED})`, function () {
  this.timeout(300_000);
  let patched: MongoClient;
  let unpatched: MongoClient | undefined;
  let dbName: string;
  const scenarioRng = rng(SEED);
  const scenarios: ArrayField[][] = Array.from({ length: SCENARIOS }, (_, i) =>
    i === 0 ? [] : ARRAY_FIELDS.filter(() => scenarioRng() < 0.35),
  );
  const pushdowns = { queries: 0, filter: 0, sort: 0 };

  before(async function () {
    const store = await testStore();
    patched = await new MongoClient(store.uri).connect();
    dbName = `${store.dbName}_diff_${randomBytes(3).toString('hex')}`;
    const plain = await testUnpatchedStore();
    if (plain) unpatched = await new MongoClient(plain.uri).connect();
    else console.error('      (no unpatched FerretDB here: compared with the JavaScript reference only)');
  });

  after(async () => {
    await patched?.db(dbName).dropDatabase();
    await unpatched?.db(dbName).dropDatabase();
    await patched?.close();
    await unpatched?.close();
    if (pushdowns.queries > 0) {
      console.error(
        `      pushed down: the filter of ${pushdowns.filter} of ${pushdowns.queries} queries, the order of ${pushdowns.sort}`,
      );
    }
  });

  scenarios.forEach((arrays, i) => {
    it(`scenario ${i}: ${DOCS} documents, arrays in ${arrays.join(', ') || 'no field'}`, async () => {
      const r = rng(SEED + i + 1);
      const docs = randomDocs(r, DOCS, arrays);
      const name = `txns_${i}`;
      const stores = [patched, unpatched].filter((c): c is MongoClient => c !== undefined);
      const [patchedColl, unpatchedColl] = await Promise.all(stores.map((c) => storeDocs(c.db(dbName).collection(name), docs)));

      let orderedSeen = 0;
      for (let q = 0; q < QUERIES; q++) {
        const { shape, query } = randomQuery(r, docs);
        const expected = ids(runQuery(docs, query), !query.sort);
        const context = () => `DIFF_SEED=${SEED} scenario ${i} query ${q} (${shape}): ${BSON.EJSON.stringify(query)}`;
        const batchSize = [2, 5, 101][q % 3]!;
        assert.deepEqual(ids(await find(patchedColl!, query, batchSize), !query.sort), expected, `patched: ${context()}`);
        if (unpatchedColl) {
          assert.deepEqual(ids(await find(unpatchedColl, query, batchSize), !query.sort), expected, `unpatched: ${context()}`);
        }
        if (q % 5 === 0) {
          const count = runQuery(docs, { filter: query.filter }).length;
          assert.equal(await patchedColl!.countDocuments(mongoFilter(query.filter)), count, `count: ${context()}`);
        }
        const explained = await pushedDown(patchedColl!, query);
        if (explained) {
          pushdowns.queries++;
          pushdowns.filter += Number(explained.filter);
          pushdowns.sort += Number(explained.sort);
          orderedSeen += Number(explained.sort);
        }
      }
      if (i === 0 && !process.env.MONGODB_URI) {
        assert.ok(orderedSeen > 0, 'without arrays some ledger or bulk reads come ordered from the index');
      }
    });
  });
});

async function storeDocs(coll: Collection<Document>, docs: Doc[]): Promise<Collection<Document>> {
  await coll.drop().catch(() => undefined);
  // The gateway's indexes, not unique: the test writes duplicate null txnIds the gateway never writes.
  for (const { key, name, sparse } of TRANSACTION_INDEXES) await coll.createIndex(key, { name, ...(sparse ? { sparse } : {}) });
  await coll.insertMany(docs as unknown as Document[]);
  return coll;
}

function find(coll: Collection<Document>, q: Query, batchSize: number): Promise<Document[]> {
  let cursor = coll.find(mongoFilter(q.filter)).batchSize(batchSize);
  if (q.sort) cursor = cursor.sort(q.sort);
  if (q.skip) cursor = cursor.skip(q.skip);
  if (q.limit) cursor = cursor.limit(q.limit);
  return cursor.toArray();
}

/** The _ids in order; sorted when the query has no order of its own. */
function ids(docs: Document[], unordered: boolean): string[] {
  const out = docs.map((d) => String(d._id));
  return unordered ? out.sort() : out;
}

/** FerretDB's explain says whether the filter and the order went to SQLite; undefined on MongoDB. */
async function pushedDown(coll: Collection<Document>, q: Query): Promise<{ filter: boolean; sort: boolean } | undefined> {
  const explain = await coll.db.command({
    explain: { find: coll.collectionName, filter: mongoFilter(q.filter), ...(q.sort ? { sort: q.sort } : {}) },
    verbosity: 'queryPlanner',
  });
  if (typeof explain.filterPushdown !== 'boolean') return undefined;
  return { filter: explain.filterPushdown as boolean, sort: explain.sortPushdown === true };
}
