import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import { ferretdbUri } from '../../src/devstack/ferretdb';
import { connectStore, STORE_CLIENT_OPTIONS } from '../../src/store/mongo';
import { testStore } from '../support/servers';

/**
 * What the gateway's connection takes from MONGODB_URI and what it pins (src/store/mongo.ts):
 * retryable writes are the URI's to decide (on by default, off for the local FerretDB), reads
 * always go to the primary.
 */
describe('store: connection options', () => {
  const client = (uri: string) => new MongoClient(uri, { ...STORE_CLIENT_OPTIONS });

  it("keeps a MongoDB URI's retryable writes (the driver's default, on) and its own setting when it has one", () => {
    const production = 'mongodb://gateway:secret@mongodb:27017/gateway?replicaSet=rs0&authSource=admin';
    assert.equal(client(production).options.retryWrites, true);
    assert.equal(client(`${production}&retryWrites=false`).options.retryWrites, false);
  });

  it('reads from the primary whatever the URI asks', () => {
    const uri = 'mongodb://mongodb:27017/gateway?replicaSet=rs0&readPreference=secondaryPreferred';
    assert.equal(client(uri).readPreference.mode, 'primary');
    assert.equal(client('mongodb://mongodb:27017/').readPreference.mode, 'primary');
  });

  it('turns retryable writes off in the URI of the local FerretDB store only', () => {
    assert.equal(client(ferretdbUri(27017)).options.retryWrites, false);
  });

  it('writes and reads back through the local store with those options', async () => {
    const { uri, dbName } = await testStore();
    const store = await connectStore(uri, `${dbName}_connection`);
    try {
      if (!process.env.MONGODB_URI) assert.equal(store.client.options.retryWrites, false);
      assert.equal(store.client.readPreference.mode, 'primary');
      const probes = store.db.collection<{ _id: string; n: number }>('connection_probe');
      await probes.updateOne({ _id: 'p' }, { $inc: { n: 1 } }, { upsert: true });
      assert.equal((await probes.findOne({ _id: 'p' }))?.n, 1);
    } finally {
      await store.db.dropDatabase();
      await store.close();
    }
  });
});
