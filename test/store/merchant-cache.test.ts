import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Collection, type Db } from 'mongodb';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { rotateSecretKey } from '../../src/usecases/merchant-keys';
import { provisionMerchant } from '../../src/usecases/provision-merchant';
import { testStore } from '../support/servers';

/**
 * The merchant cache against the real store. Found by the money model (seed 5150): a read of the
 * merchant that began before a secret-key rotation and ended after it was cached, so for the cache's
 * life the new key was refused (401) and webhooks were signed with the old one.
 */
describe('store: the merchant cache never keeps what a change made stale', function () {
  let client: MongoClient;
  let db: Db;
  const masterKey = randomBytes(32).toString('hex');

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_mcache_${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  /** The real database, except that a read of a merchant asked for with `holdNextRead` is answered only on `release`. */
  function withHeldRead(real: Db) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let answered!: () => void;
    const held = new Promise<void>((resolve) => (answered = resolve));
    let holdNext = false;
    const heldCollection = (c: Collection) =>
      new Proxy(c, {
        get(target, p, r) {
          if (p !== 'findOne') return Reflect.get(target, p, r);
          return async (...args: Parameters<Collection['findOne']>) => {
            const doc = await target.findOne(...args);
            if (holdNext) {
              holdNext = false;
              answered();
              await gate;
            }
            return doc;
          };
        },
      });
    const db = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== 'collection') return Reflect.get(target, prop, receiver);
        return (name: string) => (name === 'merchants' ? heldCollection(target.collection(name)) : target.collection(name));
      },
    });
    return { db, held, release, holdNextRead: () => (holdNext = true) };
  }

  it('a read that began before a rotation and ended after it is not cached: the new key is served at once', async () => {
    const setup = new MerchantRepository(db, masterKey);
    const m = await provisionMerchant(setup, { name: 'Cache' }, new Date());
    const held = withHeldRead(db);
    const merchants = new MerchantRepository(held.db, masterKey, 30_000);

    held.holdNextRead();
    const slowRead = merchants.findById(m.merchantIdentifier);
    await held.held; // the store answered the read with the document before the rotation
    const rotated = await rotateSecretKey(merchants, m.merchantIdentifier, 3_600_000, new Date());
    assert.ok(rotated, 'rotated');
    held.release();
    assert.equal((await slowRead)?.secretKey, m.secretKey, 'the slow read returns what it read');

    const after = await merchants.findById(m.merchantIdentifier);
    assert.equal(after?.secretKey, rotated.secretKey, 'the new key, not the cached old one');
  });
});
