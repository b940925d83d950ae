import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { migrateOnce } from '../../src/store/migration-markers';
import { testStore } from '../support/servers';

/** Whole-collection start-up migrations run once per store, and again only if they never finished. */
describe('store: start-up migrations run once per store', function () {
  let client: MongoClient;
  let db: Db;

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_migrations_${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it('a finished migration is skipped at later starts; one that failed runs again', async () => {
    let runs = 0;
    const at = new Date('2026-11-23T06:00:00Z');
    await assert.rejects(
      migrateOnce(db, 'example-v1', at, async () => {
        runs++;
        throw new Error('crashed half way');
      }),
      /crashed half way/,
    );
    assert.equal(await db.collection('migrations').countDocuments({ _id: 'example-v1' } as object), 0, 'no marker');
    assert.equal(await migrateOnce(db, 'example-v1', at, async () => void runs++), true);
    assert.equal(await migrateOnce(db, 'example-v1', at, async () => void runs++), false);
    assert.equal(runs, 2, 'the failed run and the finished one, not the skipped one');
    const marker = await db.collection('migrations').findOne({ _id: 'example-v1' } as object);
    assert.deepEqual(marker?.finishedAt, at);
    assert.equal(await migrateOnce(db, 'example-v2', at, async () => void runs++), true, 'another id runs');
  });
});
