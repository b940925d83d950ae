import { strict as assert } from 'node:assert';
import { formatIstDateTime } from '../../src/domain/ist-time';
import { revokePreviousSecretKey, rotateSecretKey } from '../../src/usecases/merchant-keys';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { ledger } from '../support/ledger';

/** A merchant's keys through the operator API: several API keys, the secret key's rotation with overlap, RSA keys. */
describe('Merchant keys: API keys, secret key rotation, RSA keys (/ops/v1/merchants/:id/...)', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let base: string;
  let auth: Record<string, string>;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Narmada Tea'));
    base = `${gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });
  const today = () => formatIstDateTime(gw.rt.now()).slice(0, 10);
  const ledgerWith = (apiKey: string) => ledger(gw, apiKey, { startDateTime: today(), endDateTime: today(), status: 'ALL' });
  const statusWith = (secretKey: string) =>
    checkStatus(gw.baseUrl, secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId: 'no-such-order' });

  it('several labelled API keys each work; last use is recorded; a revoked one is refused at once, the others still work', async () => {
    const created = await request(`${base}/api-keys`, { body: { label: 'ledger export' }, headers: auth });
    assert.equal(created.status, 201, created.text);
    const { apiKey, keyId, label, lastUsedAt } = created.json.data;
    assert.equal(label, 'ledger export');
    assert.equal(lastUsedAt, null);
    assert.match(keyId, /^ak_[0-9a-f]{16}$/);
    assert.equal((await ledgerWith(apiKey)).status, 200);
    assert.equal((await ledgerWith(merchant.apiKey)).status, 200, 'the first key too');

    const listed = await request(`${base}/api-keys`, { headers: auth });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.data.apiKeys.map((k: { label: string }) => k.label),
      ['Initial key', 'ledger export'],
    );
    assert.ok(listed.json.data.apiKeys[1].lastUsedAt, 'last use written');
    assert.ok(!JSON.stringify(listed.json).includes(apiKey), 'the key is never shown again');

    const revoked = await request(`${base}/api-keys/${keyId}/revoke`, { method: 'POST', headers: auth });
    assert.equal(revoked.status, 200, revoked.text);
    assert.ok(revoked.json.data.revokedAt);
    assert.equal((await ledgerWith(apiKey)).status, 401);
    assert.equal((await ledgerWith(merchant.apiKey)).status, 200);
  });

  it('refuses bad key requests: empty or unknown fields, unknown key or merchant, another merchant’s key', async () => {
    for (const body of [{}, { label: '' }, { label: 'x', extra: 1 }, { label: 'x'.repeat(61) }]) {
      const res = await request(`${base}/api-keys`, { body, headers: auth });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    assert.equal((await request(`${base}/api-keys/ak_0000000000000000/revoke`, { method: 'POST', headers: auth })).status, 404);
    const other = await gw.newMerchant('Other');
    const otherKey = (await request(`${gw.baseUrl}/ops/v1/merchants/${other.merchantIdentifier}/api-keys`, { headers: auth }))
      .json.data.apiKeys[0].keyId;
    const cross = await request(`${base}/api-keys/${otherKey}/revoke`, { method: 'POST', headers: auth });
    assert.equal(cross.status, 404);
    assert.match(cross.text, /2048/);
    assert.equal((await ledger(gw, other.apiKey, { startDateTime: today(), endDateTime: today(), status: 'ALL' })).status, 200);
    const unknown = await request(`${gw.baseUrl}/ops/v1/merchants/ffffffffffffffffffffffffffffffff/api-keys`, {
      body: { label: 'x' },
      headers: auth,
    });
    assert.equal(unknown.status, 404);
    assert.equal((await request(`${base}/api-keys`, { body: { label: 'x' } })).status, 401);
    assert.equal((await request(`${base}/api-keys`, { headers: auth })).json.data.apiKeys.length, 1, 'nothing was added');
  });

  it('rotating the secret key: the new one signs at once, the old one is accepted during the overlap, not after', async () => {
    const rotated = await request(`${base}/secret-key/rotate`, { method: 'POST', headers: auth });
    assert.equal(rotated.status, 200, rotated.text);
    const newKey = rotated.json.data.secretKey;
    assert.match(newKey, /^[0-9a-f]{32}$/);
    assert.notEqual(newKey, merchant.secretKey);
    assert.equal(Date.parse(rotated.json.data.previousKeyAcceptedUntil) - gw.rt.now().getTime() > 23 * 3_600_000, true);
    assert.equal((await statusWith(newKey)).status, 200);
    assert.equal((await statusWith(merchant.secretKey)).status, 200, 'the old key inside the overlap');
    assert.equal((await statusWith('0'.repeat(32))).status, 401);

    const again = await request(`${base}/secret-key/rotate`, { body: { overlapSeconds: 0 }, headers: auth });
    assert.equal(again.status, 200);
    assert.equal((await statusWith(again.json.data.secretKey)).status, 200);
    assert.equal((await statusWith(newKey)).status, 401, 'no overlap: the replaced key is refused at once');
    assert.equal((await statusWith(merchant.secretKey)).status, 401, 'an older key does not outlive the newer overlap');
    assert.equal((await request(`${base}/secret-key/rotate`, { body: { overlapSeconds: -1 }, headers: auth })).status, 400);
  });

  it('revoking the previous secret key refuses it at once; a stale request (a newer rotation since) revokes nothing', async () => {
    const revoke = (previousKeyAcceptedUntil: unknown) =>
      request(`${base}/secret-key/revoke-previous`, { body: { previousKeyAcceptedUntil }, headers: auth });
    const first = (await request(`${base}/secret-key/rotate`, { method: 'POST', headers: auth })).json.data;
    const second = (await request(`${base}/secret-key/rotate`, { body: { overlapSeconds: 7200 }, headers: auth })).json.data;
    assert.equal((await statusWith(first.secretKey)).status, 200, 'in the overlap of the second rotation');

    // Made before the second rotation: names the key that rotation replaced no more.
    const stale = await revoke(first.previousKeyAcceptedUntil);
    assert.equal(stale.status, 404, stale.text);
    assert.equal(stale.json.message.code, '2048');
    assert.equal((await statusWith(first.secretKey)).status, 200, 'the stale request revoked nothing');

    const revoked = await revoke(second.previousKeyAcceptedUntil);
    assert.equal(revoked.status, 200, revoked.text);
    assert.deepEqual(Object.keys(revoked.json.data), ['merchantIdentifier', 'previousKeyRevokedAt']);
    assert.equal((await statusWith(first.secretKey)).status, 401, 'refused at once');
    assert.equal((await statusWith(merchant.secretKey)).status, 401, 'and every older one');
    assert.equal((await statusWith(second.secretKey)).status, 200, 'the current key still signs');
    assert.equal((await revoke(second.previousKeyAcceptedUntil)).json.message.code, '2048', 'nothing left to revoke');

    for (const bad of ['tomorrow', 42, undefined]) assert.equal((await revoke(bad)).status, 400, String(bad));
    const unknown = await request(`${gw.baseUrl}/ops/v1/merchants/nosuchmerchant/secret-key/revoke-previous`, {
      body: { previousKeyAcceptedUntil: second.previousKeyAcceptedUntil },
      headers: auth,
    });
    assert.equal(unknown.json.message.code, '2042');
  });

  it('a revoke racing a rotation (even in the same millisecond) never revokes the key that rotation replaced', async () => {
    const first = (await request(`${base}/secret-key/rotate`, { method: 'POST', headers: auth })).json.data;
    const [revoked, rotated] = await Promise.all([
      request(`${base}/secret-key/revoke-previous`, {
        body: { previousKeyAcceptedUntil: first.previousKeyAcceptedUntil },
        headers: auth,
      }),
      request(`${base}/secret-key/rotate`, { method: 'POST', headers: auth }),
    ]);
    assert.equal(rotated.status, 200);
    assert.ok([200, 404].includes(revoked.status), revoked.text);
    // Whichever came first, the key the rotation replaced (first's) keeps its overlap.
    assert.equal((await statusWith(first.secretKey)).status, 200);
    assert.equal((await statusWith(rotated.json.data.secretKey)).status, 200);
  });

  it('two rotations in the same millisecond report different ends of overlap, so the stale one revokes nothing', async () => {
    const at = gw.rt.now();
    const m = merchant.merchantIdentifier;
    const first = (await rotateSecretKey(gw.rt.merchants, m, 3_600_000, at))!;
    const second = (await rotateSecretKey(gw.rt.merchants, m, 3_600_000, at))!;
    assert.notEqual(first.previousKeyAcceptedUntil, second.previousKeyAcceptedUntil);
    assert.equal(await revokePreviousSecretKey(gw.rt.merchants, m, new Date(first.previousKeyAcceptedUntil), at), 'unknown');
    assert.equal((await statusWith(first.secretKey)).status, 200);
  });

  it('a key rotated on one API replica signs at once on another whose cache still holds the merchant', async () => {
    const replica = await startTestGateway({ MONGODB_DB: gw.rt.config.store.database, MERCHANT_CACHE_SECONDS: '30' });
    try {
      const statusAt = (g: TestGateway, secretKey: string) =>
        checkStatus(g.baseUrl, secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId: 'no-such-order' });
      assert.equal((await statusAt(replica, merchant.secretKey)).status, 200, 'the replica caches the merchant');
      const rotated = await request(`${base}/secret-key/rotate`, { method: 'POST', headers: auth });
      const newKey = rotated.json.data.secretKey;
      assert.equal((await statusAt(replica, newKey)).status, 200, "the new key, not a 401 for the cache's life");
      assert.equal((await statusAt(replica, merchant.secretKey)).status, 200, 'the old one in its overlap');
      assert.equal((await statusAt(replica, '0'.repeat(32))).status, 401);
    } finally {
      await replica.stop();
    }
  });

  it('rotating the RSA key gives a new encryptionKeyId first; the old one is retired on request, the newest cannot be', async () => {
    const rotated = await request(`${base}/encryption-keys/rotate`, { method: 'POST', headers: auth });
    assert.equal(rotated.status, 200, rotated.text);
    const ids = rotated.json.data.encryptionKeys.map((k: { encryptionKeyId: string }) => k.encryptionKeyId);
    assert.equal(ids.length, 2);
    assert.equal(ids[1], merchant.encryptionKeyId);
    assert.match(rotated.json.data.encryptionKeys[0].publicKeyPem, /BEGIN PUBLIC KEY/);
    assert.ok(
      await gw.rt.merchants.privateKeyPem(merchant.merchantIdentifier, merchant.encryptionKeyId),
      'the old key still decrypts',
    );

    const newest = await request(`${base}/encryption-keys/${ids[0]}/retire`, { method: 'POST', headers: auth });
    assert.equal(newest.status, 400);
    const retired = await request(`${base}/encryption-keys/${ids[1]}/retire`, { method: 'POST', headers: auth });
    assert.equal(retired.status, 200, retired.text);
    assert.deepEqual(
      retired.json.data.encryptionKeys.map((k: { encryptionKeyId: string }) => k.encryptionKeyId),
      [ids[0]],
    );
    assert.equal(
      await gw.rt.merchants.privateKeyPem(merchant.merchantIdentifier, merchant.encryptionKeyId),
      null,
      'retired: no longer decrypts',
    );
    assert.equal((await request(`${base}/encryption-keys/ek_nope/retire`, { method: 'POST', headers: auth })).status, 404);
  });
});
