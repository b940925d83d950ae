import { strict as assert } from 'node:assert';
import type { AuditRecord } from '../../src/domain/audit';
import { AuditRepository } from '../../src/store/audit-repository';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { DASHBOARD_PASSWORD, dashboardUser, newEmail } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';

type Listed = Omit<AuditRecord, 'at'> & { id: string; at: string };

/**
 * Staff's changes from the dashboard are audit records (the staff member's email, the request's
 * address, no secret), read by operators (GET /ops/v1/audit) and by the merchant's owners on the
 * Audit page, newest first; other roles are refused the page.
 */
describe('Merchant dashboard: staff audit records and the Audit page (/dashboard/audit)', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Tapti Ceramics')));

  const opsAudit = async (): Promise<Listed[]> => {
    const res = await request(`${gw.baseUrl}/ops/v1/audit?merchantIdentifier=${merchant.merchantIdentifier}&limit=100`, {
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    assert.equal(res.status, 200, res.text);
    return res.json.data.records;
  };

  it('every change an owner makes in the dashboard is recorded with the owner, the address and no secret', async () => {
    const mid = merchant.merchantIdentifier;
    const owner = await dashboardUser(gw, mid, 'owner');
    const post = async (path: string, form: Record<string, string>, status: number) => {
      const res = await owner.client.post(path, form);
      assert.equal(res.status, status, `${path}: ${res.text.slice(0, 300)}`);
      return res.text;
    };

    // Users: an invitation, a role change, a removal.
    const invited = newEmail('dev');
    await post('/dashboard/users/invitations', { email: invited, role: 'developer' }, 201);
    const colleague = await dashboardUser(gw, mid, 'developer');
    await post(
      `/dashboard/users/${encodeURIComponent(colleague.email)}/role`,
      { role: 'viewer', password: DASHBOARD_PASSWORD },
      303,
    );
    await post(`/dashboard/users/${encodeURIComponent(colleague.email)}/remove`, {}, 303);
    // Keys and secrets.
    const apiKey = /id="new-api-key" class="secret">([^<]+)</.exec(
      await post('/dashboard/developers/api-keys', { label: 'shop' }, 201),
    )![1]!;
    const keyId = (await gw.rt.merchants.listApiKeys(mid))!.find((k) => k.label === 'shop')!.keyId;
    await post(`/dashboard/developers/api-keys/${keyId}/revoke`, {}, 303);
    const secretKey = /id="new-secret-key" class="secret">([^<]+)</.exec(
      await post('/dashboard/developers/secret-key/rotate', {}, 200),
    )![1]!;
    const until = (await gw.rt.merchants.findById(mid))!.previousSecretKeys[0]!.retiresAt.toISOString();
    await post('/dashboard/developers/secret-key/revoke-previous', { previousKeyAcceptedUntil: until }, 303);
    await post('/dashboard/developers/encryption-keys/rotate', {}, 303);
    await post(`/dashboard/developers/encryption-keys/${merchant.encryptionKeyId}/retire`, {}, 303);
    // Webhooks.
    await post('/dashboard/webhooks/settings', { webhookUrl: 'https://example.com/hook', webhookFormat: 'json' }, 303);
    const signingSecret = /id="new-signing-secret" class="secret">([^<]+)</.exec(
      await post('/dashboard/webhooks/signing-secret/rotate', {}, 200),
    )![1]!;
    await post('/dashboard/webhooks/endpoint/enable', {}, 303);
    // Money: a refund.
    const orderId = newOrderId('audit');
    await sandboxPay(gw, { merchantIdentifier: mid, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, mid, orderId);
    const orderPage = (await owner.client.send(`/dashboard/transactions/${orderId}`)).text;
    const refundId = /name="refundId" value="([^"]+)"/.exec(orderPage)![1]!;
    await post(
      `/dashboard/transactions/${orderId}/refunds`,
      { updateDesired: '22', amount: '1.00', reason: 'audit test', refundId },
      303,
    );

    const records = await opsAudit();
    const staff = records.filter((r) => r.actor.kind === 'staff');
    assert.deepEqual(
      staff.map((r) => r.action),
      [
        'refund.requested',
        'webhook.settings_changed',
        'webhook.secret_rotated',
        'webhook.settings_changed',
        'key.revoked',
        'key.rotated',
        'key.revoked',
        'key.rotated',
        'key.revoked',
        'key.created',
        'dashboard.user_removed',
        'dashboard.role_changed',
        'dashboard.user_invited',
      ],
      'newest first',
    );
    for (const r of staff) {
      assert.deepEqual(r.actor, { kind: 'staff', email: owner.email }, r.action);
      assert.equal(r.merchantIdentifier, mid);
      assert.match(String(r.from), /^(::ffff:)?127\.0\.0\.1$|^::1$/, `${r.action}: the request's address`);
    }
    const detail = (action: string) => staff.find((r) => r.action === action)!.detail;
    assert.deepEqual(detail('dashboard.role_changed'), { email: colleague.email, previousRole: 'developer', role: 'viewer' });
    assert.deepEqual(detail('dashboard.user_invited'), { email: invited, role: 'developer' });
    assert.deepEqual(detail('refund.requested'), {
      orderId,
      updateDesired: '22',
      amountPaise: 100,
      merchantRefId: refundId,
      reason: 'audit test',
    });
    assert.deepEqual(detail('key.created'), { kind: 'apiKey', keyId, label: 'shop' });
    const all = JSON.stringify(records);
    for (const secret of [apiKey, secretKey, signingSecret, merchant.secretKey])
      assert.ok(!all.includes(secret), 'no secret in the audit trail');
  });

  it('the Audit page lists the merchant’s records newest first, for owners only; older records are a page away', async () => {
    const mid = merchant.merchantIdentifier;
    const owner = await dashboardUser(gw, mid, 'owner');
    const other = await gw.newMerchant('Other Merchant');
    const repo = new AuditRepository(gw.rt.store.db);
    const base = gw.rt.now().getTime() - 3_600_000;
    // 60 records, two by two at the same instant, and one of another merchant.
    for (let i = 0; i < 60; i++)
      await repo.record({
        action: 'webhook.replayed',
        actor: { kind: 'operator', name: 'ops-admin' },
        merchantIdentifier: mid,
        at: new Date(base + Math.floor(i / 2) * 1000),
        from: '10.0.0.1',
        detail: { deliveryId: `d-${String(i).padStart(2, '0')}` },
      });
    await repo.record({
      action: 'key.rotated',
      actor: { kind: 'operator', name: 'ops-admin' },
      merchantIdentifier: other.merchantIdentifier,
      at: new Date(base),
      from: null,
      detail: { deliveryId: 'foreign' },
    });
    assert.equal((await owner.client.post('/dashboard/webhooks/signing-secret/rotate', {})).status, 200);

    const ids = (text: string) => [...text.matchAll(/deliveryId: <code>([^<]+)</g)].map((m) => m[1]!);
    const first = await owner.client.send('/dashboard/audit');
    assert.equal(first.status, 200);
    assert.match(first.text, /aria-current="page">Audit</);
    const rows = [
      ...first.text.matchAll(/<td class="audit-action"><code>([^<]+)<\/code><\/td><td class="audit-actor">([^<]+)</g),
    ];
    assert.deepEqual(rows[0]!.slice(1), ['webhook.secret_rotated', owner.email], 'the newest first: the rotation just made');
    assert.ok(!first.text.includes('foreign'), "another merchant's records are not listed");
    const page1 = ids(first.text);
    assert.equal(page1.length, 48, '49 records fit, but the pair at the boundary moves to the next page together');
    const older = /<a href="([^"]+)" id="older">/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    const second = await owner.client.send(older);
    assert.equal(second.status, 200);
    const page2 = ids(second.text);
    const pair = (id: string) => Math.floor(Number(id.slice(2)) / 2);
    assert.deepEqual(
      [...page1, ...page2].map(pair),
      Array.from({ length: 60 }, (_, i) => Math.floor((59 - i) / 2)),
      'newest first across the two pages',
    );
    assert.equal(new Set([...page1, ...page2]).size, 60, 'every record once');
    assert.doesNotMatch(second.text, /id="older"/);

    for (const role of ['developer', 'viewer'] as const) {
      const user = await dashboardUser(gw, mid, role);
      assert.equal((await user.client.send('/dashboard/audit')).status, 403, role);
      assert.doesNotMatch((await user.client.send('/dashboard')).text, /href="\/dashboard\/audit"/, `${role}: no Audit link`);
    }
    assert.equal((await owner.client.send('/dashboard/audit?before=yesterday')).status, 400);
    assert.equal((await owner.client.send('/dashboard/audit?limit=5')).status, 400);
  });
});
