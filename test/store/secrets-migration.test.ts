import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { provisionMerchant } from '../../src/usecases/provision-merchant';
import { encryptV1 } from '../support/secrets';
import { testStore } from '../support/servers';

interface RawMerchant {
  _id: string;
  secretKeyEncrypted: string;
  encryptionKeys: { keyId: string; privateKeyEncrypted: string }[];
}

/** Secrets at rest in the real store: bound to their merchant, and the first format migrated. */
describe('store: merchant secrets at rest (derived key, bound to merchant and field)', function () {
  let client: MongoClient;
  let db: Db;
  const masterKey = randomBytes(32).toString('hex');
  const raw = () => db.collection<RawMerchant>('merchants');

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_secrets_${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it('an encrypted secret moved to another merchant fails to decrypt', async () => {
    const merchants = new MerchantRepository(db, masterKey);
    const a = await provisionMerchant(merchants, { name: 'A' }, new Date());
    const b = await provisionMerchant(merchants, { name: 'B' }, new Date());
    const docA = (await raw().findOne({ _id: a.merchantIdentifier }))!;
    assert.match(docA.secretKeyEncrypted, /^v2\./);
    assert.ok(!JSON.stringify(docA).includes(a.secretKey), 'no plaintext stored');
    // Someone with write access to the store copies A's secret key and private key onto B.
    await raw().updateOne(
      { _id: b.merchantIdentifier },
      { $set: { secretKeyEncrypted: docA.secretKeyEncrypted, encryptionKeys: docA.encryptionKeys } },
    );
    await assert.rejects(() => new MerchantRepository(db, masterKey).findById(b.merchantIdentifier), /unable to authenticate/);
    await assert.rejects(
      () => merchants.privateKeyPem(b.merchantIdentifier, docA.encryptionKeys[0]!.keyId),
      /unable to authenticate/,
    );
    assert.equal((await merchants.findById(a.merchantIdentifier))?.secretKey, a.secretKey, 'A still reads its own');
  });

  it('a webhook signing secret is given at creation; one stored without: reads never write, the start-up backfill gives it one, once', async () => {
    const merchants = new MerchantRepository(db, masterKey);
    const now = new Date();
    const fresh = await provisionMerchant(merchants, { name: 'New' }, now);
    assert.equal((await merchants.webhookSigningSecrets(fresh.merchantIdentifier, now))?.length, 1, 'given at creation');
    const old = await provisionMerchant(merchants, { name: 'Before signing secrets' }, now);
    await db
      .collection('merchants')
      .updateOne({ _id: old.merchantIdentifier as never }, { $unset: { webhookSigningSecrets: '' } });
    const stored = async () => (await db.collection('merchants').findOne({ _id: old.merchantIdentifier as never }))!;

    assert.deepEqual(await merchants.webhookSigningSecrets(old.merchantIdentifier, now), []);
    assert.deepEqual((await merchants.webhookSigner(old.merchantIdentifier, now))?.secrets, []);
    assert.equal((await stored()).webhookSigningSecrets, undefined, 'the reads wrote nothing');

    assert.equal(await merchants.backfillWebhookSigningSecrets(now), 1);
    const given = await merchants.webhookSigningSecrets(old.merchantIdentifier, now);
    assert.equal(given?.length, 1);
    assert.equal(await merchants.backfillWebhookSigningSecrets(now), 0, 'once');
    assert.deepEqual(await merchants.webhookSigningSecrets(old.merchantIdentifier, now), given);
  });

  it('migrates what is stored in the first format: read v1, rewrite v2, once', async () => {
    const merchants = new MerchantRepository(db, masterKey);
    const m = await provisionMerchant(merchants, { name: 'Old' }, new Date());
    const keyId = (await raw().findOne({ _id: m.merchantIdentifier }))!.encryptionKeys[0]!.keyId;
    const privateKeyPem = await merchants.privateKeyPem(m.merchantIdentifier, keyId);
    // As stored before this change: the master key itself, no associated data.
    await raw().updateOne(
      { _id: m.merchantIdentifier },
      {
        $set: {
          secretKeyEncrypted: encryptV1(masterKey, m.secretKey),
          'encryptionKeys.0.privateKeyEncrypted': encryptV1(masterKey, privateKeyPem!),
        },
      },
    );
    const fresh = new MerchantRepository(db, masterKey);
    assert.equal((await fresh.findById(m.merchantIdentifier))?.secretKey, m.secretKey, 'v1 is still read');

    const rewritten = await Promise.all([
      fresh.migrateSecretsAtRest(),
      new MerchantRepository(db, masterKey).migrateSecretsAtRest(),
    ]);
    assert.ok(rewritten.reduce((x, y) => x + y, 0) >= 1);
    const doc = (await raw().findOne({ _id: m.merchantIdentifier }))!;
    assert.match(doc.secretKeyEncrypted, /^v2\./);
    assert.match(doc.encryptionKeys[0]!.privateKeyEncrypted, /^v2\./);
    assert.equal(await fresh.migrateSecretsAtRest(), 0, 'nothing left to migrate');
    const after = new MerchantRepository(db, masterKey);
    assert.equal((await after.findById(m.merchantIdentifier))?.secretKey, m.secretKey);
    assert.equal(await after.privateKeyPem(m.merchantIdentifier, keyId), privateKeyPem);
  });
});
