import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

/**
 * Key changes that race: each is a conditional update of what it read (src/store/merchant-repository.ts),
 * retried on a lost race, so two operators (or two clicks) at once never lose a key the other made
 * or undo the other's retirement.
 */
describe('Merchant keys changed concurrently (/ops/v1/merchants/:id/...)', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let base: string;
  let auth: Record<string, string>;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Concurrent Keys'));
    base = `${gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });
  const post = (path: string, body?: object) =>
    request(`${base}${path}`, { method: 'POST', headers: auth, ...(body ? { body } : {}) });

  it('concurrent webhook signing secret rotations each keep the secret they handed out', async () => {
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => post('/webhook-signing-secret/rotate', { overlapSeconds: 3600 })),
      );
      const handedOut = answers.map((a) => {
        assert.equal(a.status, 200, a.text);
        return (a.json.data.secrets as { secret: string }[])[0]!.secret;
      });
      assert.equal(new Set(handedOut).size, handedOut.length, 'each rotation made a secret of its own');
      const inUse = (await request(`${base}/webhook-signing-secret`, { headers: auth })).json.data.secrets.map(
        (s: { secret: string }) => s.secret,
      );
      for (const secret of handedOut) assert.ok(inUse.includes(secret), `round ${round}: a handed-out secret was lost`);
    }
  });

  it('concurrent RSA key rotations and retirements lose no new key and undo no retirement', async () => {
    const keysNow = async () =>
      (await request(`${base}/encryption-keys`, { headers: auth })).json.data.encryptionKeys.map(
        (k: { encryptionKeyId: string }) => k.encryptionKeyId,
      ) as string[];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2; i++) assert.equal((await post('/encryption-keys/rotate')).status, 200);
      const before = await keysNow();
      const retiring = before.slice(1); // every key but the newest
      const answers = await Promise.all([
        ...retiring.map((keyId) => post(`/encryption-keys/${keyId}/retire`)),
        post('/encryption-keys/rotate'),
        post('/encryption-keys/rotate'),
      ]);
      for (const a of answers) assert.equal(a.status, 200, a.text);
      // The keys the two rotations made: those of their answers that were not there before.
      const added = [
        ...new Set(
          answers
            .slice(retiring.length)
            .flatMap((a) => (a.json.data.encryptionKeys as { encryptionKeyId: string }[]).map((k) => k.encryptionKeyId)),
        ),
      ].filter((keyId) => !before.includes(keyId));
      assert.equal(added.length, 2, 'each rotation answers with the key it made');
      const after = await keysNow();
      for (const keyId of added) assert.ok(after.includes(keyId), `round ${round}: a new key was lost`);
      for (const keyId of retiring) assert.ok(!after.includes(keyId), `round ${round}: a retirement was undone`);
      assert.deepEqual(after.slice().sort(), [before[0]!, ...added].sort());
    }
  });
});
