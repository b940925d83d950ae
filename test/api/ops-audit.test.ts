import { strict as assert } from 'node:assert';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { csvFile, uploadReconciliation } from '../support/reconciliations';

interface Listed {
  action: string;
  actor: { kind: string; name: string };
  merchantIdentifier: string | null;
  from: string | null;
  detail: Record<string, unknown>;
}

/** Operators' changes of a merchant through the ops API land in the audit trail, with who, where from and what (no secret). */
describe('Operator API: changes of merchants are audited', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let ops: string;
  let auth: Record<string, string>;
  before(async () => {
    gw = await sharedGateway();
    ops = `${gw.baseUrl}/ops/v1`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });
  const call = async (path: string, body?: object, method?: 'GET' | 'POST' | 'PATCH') => {
    const res = await request(`${ops}${path}`, {
      ...(body === undefined ? {} : { body }),
      ...(method ? { method } : {}),
      headers: auth,
    });
    assert.ok(res.status < 300, `${path}: ${res.status} ${res.text}`);
    return res.json.data;
  };
  const trailOf = async (merchantIdentifier: string): Promise<Listed[]> =>
    (await call(`/audit?merchantIdentifier=${merchantIdentifier}&limit=100`, undefined, 'GET')).records.reverse();

  it('merchant create and update, every key operation and the webhook secret: one record each, oldest first here', async () => {
    const created = await call('/merchants', { name: 'Audited Keys' });
    const m = created.merchantIdentifier as string;
    await call(`/merchants/${m}`, { autoRefund: true }, 'PATCH');
    const apiKey = await call(`/merchants/${m}/api-keys`, { label: 'export' });
    await call(`/merchants/${m}/api-keys/${apiKey.keyId}/revoke`, undefined, 'POST');
    const rotated = await call(`/merchants/${m}/secret-key/rotate`, undefined, 'POST');
    await call(`/merchants/${m}/secret-key/revoke-previous`, { previousKeyAcceptedUntil: rotated.previousKeyAcceptedUntil });
    const rsa = await call(`/merchants/${m}/encryption-keys/rotate`, undefined, 'POST');
    await call(`/merchants/${m}/encryption-keys/${created.encryptionKeyId}/retire`, undefined, 'POST');
    const signing = await call(`/merchants/${m}/webhook-signing-secret`, undefined, 'GET');
    await call(`/merchants/${m}/webhook-signing-secret/rotate`, {});
    await call(`/merchants/${m}/webhook-endpoint/enable`, undefined, 'POST');

    const records = await trailOf(m);
    assert.deepEqual(
      records.map((r) => [r.action, r.detail.key ?? null]),
      [
        ['merchant.created', null],
        ['merchant.updated', null],
        ['key.created', 'api_key'],
        ['key.revoked', 'api_key'],
        ['key.rotated', 'secret_key'],
        ['key.revoked', 'previous_secret_key'],
        ['key.rotated', 'encryption_key'],
        ['key.revoked', 'encryption_key'],
        ['key.revealed', 'webhook_signing_secret'],
        ['webhook.secret_rotated', null],
        ['webhook.settings_changed', null],
      ],
    );
    for (const r of records) {
      assert.deepEqual([r.actor.kind, r.merchantIdentifier], ['operator', m]);
      assert.match(r.from ?? '', /127\.0\.0\.1/);
    }
    assert.equal(records[1]!.detail.changed, 'autoRefund');
    assert.equal(records[2]!.detail.keyId, apiKey.keyId);
    assert.equal(records[6]!.detail.encryptionKeyId, rsa.encryptionKeys[0].encryptionKeyId);
    // No secret in any record: not the secret keys, the API key, nor the signing secret.
    const text = JSON.stringify(records);
    for (const secret of [created.secretKey, rotated.secretKey, created.apiKey, apiKey.apiKey, signing.secrets[0].secret])
      assert.ok(!text.includes(secret as string));
  });

  it('a chargeback raised and reverted, and a reconciliation file, are recorded; a refused chargeback is not', async () => {
    const m = (await call('/merchants', { name: 'Audited Money' })).merchantIdentifier as string;
    const orderId = newOrderId('au');
    await sandboxPay(gw, { merchantIdentifier: m, orderId, amount: 10_000, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, m, orderId);
    await call('/chargebacks', { merchantIdentifier: m, orderId, amount: 4000, action: 'raise' });
    const refused = await request(`${ops}/chargebacks`, {
      body: { merchantIdentifier: m, orderId, amount: 99_999, action: 'raise' },
      headers: auth,
    });
    assert.equal(refused.json.success, false);
    await call('/chargebacks', { merchantIdentifier: m, orderId, amount: 4000, action: 'revert' });
    assert.deepEqual(
      (await trailOf(m)).map((r) => [r.action, r.detail.orderId ?? null, r.detail.amountPaise ?? null]),
      [
        ['merchant.created', null, null],
        ['chargeback.raised', orderId, 4000],
        ['chargeback.reverted', orderId, 4000],
      ],
    );

    const uploaded = await uploadReconciliation(gw, csvFile(['NOSUCHTXN1,BRN1,SUCCESS,100']));
    assert.equal(uploaded.status, 202, uploaded.text);
    const all = (await call('/audit?limit=500', undefined, 'GET')).records as Listed[];
    const recon = all.find(
      (r) => r.action === 'reconciliation.applied' && r.detail.reconciliationId === uploaded.json.data.reconciliationId,
    );
    assert.ok(recon, 'the upload is recorded');
    assert.equal(recon.merchantIdentifier, null);
    assert.equal(recon.actor.kind, 'operator');
  });

  it('a webhook replay is recorded with its merchant; a replay of an unknown delivery records nothing', async () => {
    const m = (await call('/merchants', { name: 'Audited Replays' })).merchantIdentifier as string;
    await call('/webhooks/replay', { since: new Date(Date.now() - 60_000).toISOString(), merchantIdentifier: m });
    const unknown = await request(`${ops}/webhooks/no-such-delivery/replay`, { method: 'POST', headers: auth });
    assert.equal(unknown.status, 404);
    assert.deepEqual(
      (await trailOf(m)).map((r) => [r.action, r.detail.count ?? null]),
      [
        ['merchant.created', null],
        ['webhook.replayed', 0],
      ],
    );
  });
});
