import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { hashApiKey } from '../../src/domain/secrets';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { provisionMerchant } from '../../src/usecases/provision-merchant';
import { testStore } from '../support/servers';

/** API keys are found by their hash as `_id`; merchants stored before that get their entry at start-up. */
describe('store: API keys by hash', function () {
  let client: MongoClient;
  let db: Db;
  const masterKey = randomBytes(32).toString('hex');

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_keys_${randomBytes(3).toString('hex')}`);
  });

  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it('finds the merchant of a key, and nobody for an unknown key', async () => {
    const merchants = new MerchantRepository(db, masterKey);
    const creds = await provisionMerchant(merchants, { name: 'Keys' }, new Date());
    assert.equal((await merchants.findByApiKeyHash(hashApiKey(creds.apiKey)))?.merchantIdentifier, creds.merchantIdentifier);
    assert.equal(await merchants.findByApiKeyHash(hashApiKey(`${creds.apiKey}x`)), null);
  });

  it('backfills the key entry of a merchant stored without one, once', async () => {
    const merchants = new MerchantRepository(db, masterKey);
    const creds = await provisionMerchant(merchants, { name: 'Old' }, new Date());
    await db.collection('api_keys').deleteOne({ _id: hashApiKey(creds.apiKey) as never });
    assert.equal(await merchants.findByApiKeyHash(hashApiKey(creds.apiKey)), null);

    await Promise.all([merchants.backfillApiKeys(), merchants.backfillApiKeys()]);
    await merchants.backfillApiKeys();
    assert.equal((await merchants.findByApiKeyHash(hashApiKey(creds.apiKey)))?.merchantIdentifier, creds.merchantIdentifier);
    assert.equal(await db.collection('api_keys').countDocuments({ merchantIdentifier: creds.merchantIdentifier }), 1);
  });
});
