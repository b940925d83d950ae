import { strict as assert } from 'node:assert';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { ledger } from '../support/ledger';

/**
 * Two API replicas on one store, each caching merchants: a key revoked through one is refused by
 * the other at its next request, not when its cache entry expires.
 */
describe('Key revocation reaches every API replica at once', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let replica: TestGateway;
  let merchant: MerchantCredentials;
  let base: string;
  let auth: Record<string, string>;
  before(async () => {
    ({ gw } = await gatewayWithNewMerchant());
    replica = await startTestGateway({ MONGODB_DB: gw.rt.config.store.database, MERCHANT_CACHE_SECONDS: '30' });
  });
  after(() => replica.stop());
  beforeEach(async () => {
    merchant = await gw.newMerchant('Two Replicas');
    base = `${gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });
  const statusAt = (g: TestGateway, secretKey: string) =>
    checkStatus(g.baseUrl, secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId: 'no-such-order' });

  it('a previous secret key revoked on one replica is refused by the other, whose cache held it, within a second', async () => {
    const rotated = await request(`${base}/secret-key/rotate`, { method: 'POST', headers: auth });
    assert.equal(rotated.status, 200, rotated.text);
    const { secretKey: newKey, previousKeyAcceptedUntil } = rotated.json.data;
    // The replica reads the merchant in the overlap and caches it with both keys.
    assert.equal((await statusAt(replica, merchant.secretKey)).status, 200);
    assert.equal((await statusAt(replica, newKey)).status, 200);

    const revoked = await request(`${base}/secret-key/revoke-previous`, { body: { previousKeyAcceptedUntil }, headers: auth });
    assert.equal(revoked.status, 200, revoked.text);
    const at = Date.now();
    assert.equal((await statusAt(replica, merchant.secretKey)).status, 401, 'the revoked key, on the other replica');
    assert.ok(Date.now() - at < 1000);
    assert.equal((await statusAt(gw, merchant.secretKey)).status, 401);
    assert.equal((await statusAt(replica, newKey)).status, 200, 'the key in force still works there');
  });

  it('a secret key rotated with no overlap on one replica stops working on the other at once', async () => {
    assert.equal((await statusAt(replica, merchant.secretKey)).status, 200, 'cached there');
    const rotated = await request(`${base}/secret-key/rotate`, { body: { overlapSeconds: 0 }, headers: auth });
    assert.equal(rotated.status, 200, rotated.text);
    assert.equal((await statusAt(replica, merchant.secretKey)).status, 401);
    assert.equal((await statusAt(replica, rotated.json.data.secretKey)).status, 200);
  });

  it('an API key revoked on one replica is refused by the other at once', async () => {
    const today = formatIstDateTime(gw.rt.now()).slice(0, 10);
    const ledgerAt = (g: TestGateway, apiKey: string) =>
      ledger(g, apiKey, { startDateTime: today, endDateTime: today, status: 'ALL' });
    const created = await request(`${base}/api-keys`, { body: { label: 'export' }, headers: auth });
    assert.equal(created.status, 201, created.text);
    assert.equal((await ledgerAt(replica, created.json.data.apiKey)).status, 200);
    const revoked = await request(`${base}/api-keys/${created.json.data.keyId}/revoke`, { method: 'POST', headers: auth });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal((await ledgerAt(replica, created.json.data.apiKey)).status, 401);
    assert.equal((await ledgerAt(replica, merchant.apiKey)).status, 200, 'the other key still works');
  });
});
