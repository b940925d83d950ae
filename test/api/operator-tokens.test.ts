import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { freePort } from '../../src/devstack/process';
import { serveApi } from '../../src/main/api';
import type { Runtime } from '../../src/main/runtime';
import { cliEnvFor, runCli } from '../support/cli';
import { accept, dashboardUser, FormClient, newEmail } from '../support/dashboard';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

/** Operator tokens by job: each scope opens its own routes only, a revoked token is refused at once, only hashes are kept. */
describe('Operator API: scoped operator tokens', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  /** Where the operator API listens. */
  let ops: string;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const breakGlass = () => bearer(gw.rt.config.secrets.opsToken);
  let run = 0;
  const issue = async (scopes: string[], name = `t${Date.now().toString(36)}-${run++}`) => {
    const res = await request(`${ops}/ops/v1/operator-tokens`, { body: { name, scopes }, headers: breakGlass() });
    assert.equal(res.status, 201, res.text);
    return { name, token: res.json.data.token as string };
  };
  const newMerchant = async () => {
    const res = await request(`${ops}/ops/v1/merchants`, { body: { name: 'Scoped Stores' }, headers: breakGlass() });
    assert.equal(res.status, 201, res.text);
    return res.json.data.merchantIdentifier as string;
  };
  // A gateway of its own with the operator listener apart, as staging and production run it.
  before(async () => {
    // TRUST_PROXY as production sets it: the public listener's proxy, never the operator listener's.
    gw = await startTestGateway({ OPS_PORT: String(await freePort()), TRUST_PROXY: 'true' });
    ops = gw.opsBaseUrl;
  });
  after(() => gw.stop());

  it('serves /ops/* and /metrics on the operator listener only: the public listener answers 404, however the path is spelled', async () => {
    assert.notEqual(ops, gw.baseUrl);
    for (const path of [
      '/ops/v1/audit',
      '/OPS/v1/audit',
      '/ops/v1/operator-tokens',
      '/ops/v1/codec/decode',
      '/%6Fps/v1/audit',
      '/metrics',
    ]) {
      for (const method of ['GET', 'POST']) {
        const res = await request(`${gw.baseUrl}${path}`, {
          method,
          headers: breakGlass(),
          ...(method === 'POST' ? { body: {} } : {}),
        });
        assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      }
    }
    assert.equal((await request(`${ops}/ops/v1/audit`, { headers: breakGlass() })).status, 200);
    assert.equal((await request(`${ops}/metrics`, { headers: breakGlass() })).status, 200);
    // The operator listener serves nothing else of the gateway (its probes excepted).
    assert.equal((await request(`${ops}/api/payments/v1/status`, { body: {} })).status, 404);
    assert.equal((await request(`${ops}/health`)).status, 200);
    assert.equal((await request(`${gw.baseUrl}/health`)).status, 200);
  });

  /** What each representative route answers a token of `scopes`: its status. */
  async function statuses(token: string, merchant: string): Promise<Record<string, number>> {
    const h = bearer(token);
    const m = `${ops}/ops/v1/merchants/${merchant}`;
    const calls: Record<string, () => Promise<{ status: number }>> = {
      'GET audit': () => request(`${ops}/ops/v1/audit?merchantIdentifier=${merchant}`, { headers: h }),
      'GET api-keys': () => request(`${m}/api-keys`, { headers: h }),
      'GET signing secret': () => request(`${m}/webhook-signing-secret`, { headers: h }),
      'GET fee-plan': () => request(`${m}/fee-plan`, { headers: h }),
      'GET webhooks': () => request(`${ops}/ops/v1/webhooks?merchantIdentifier=${merchant}`, { headers: h }),
      'PATCH merchant': () => request(m, { method: 'PATCH', body: { autoRefund: false }, headers: h }),
      'POST api-key': () => request(`${m}/api-keys`, { body: { label: 'scoped' }, headers: h }),
      'POST hold': () => request(`${m}/settlements/hold`, { method: 'POST', headers: h }),
      'POST chargeback': () =>
        request(`${ops}/ops/v1/chargebacks`, {
          body: { merchantIdentifier: merchant, orderId: 'none', amount: 1, action: 'raise' },
          headers: h,
        }),
      'POST decode': () => request(`${ops}/ops/v1/codec/decode`, { body: { payloads: [] }, headers: h }),
      'GET metrics': () => request(`${ops}/metrics`, { headers: h }),
      'POST token': () =>
        request(`${ops}/ops/v1/operator-tokens`, {
          body: { name: `n${run++}-${merchant.toLowerCase()}`, scopes: ['read'] },
          headers: h,
        }),
    };
    const out: Record<string, number> = {};
    for (const [name, call] of Object.entries(calls)) out[name] = (await call()).status;
    return out;
  }

  it('each scope opens its own routes and no other: 403 in the ops envelope for the rest', async () => {
    const merchant = await newMerchant();
    const deny = 403;
    const expected: Record<string, Record<string, number>> = {
      read: { 'GET audit': 200, 'GET api-keys': 200, 'GET signing secret': deny, 'GET fee-plan': 200, 'GET webhooks': 200 },
      metrics: { 'GET metrics': 200 },
      codec: { 'POST decode': 200 },
      'merchant-admin': {
        'GET api-keys': 200,
        'GET signing secret': 200,
        'GET webhooks': 200,
        'PATCH merchant': 200,
      },
      money: { 'GET fee-plan': 200, 'POST hold': 200, 'POST chargeback': 200 },
      tokens: { 'POST token': 201 },
    };
    for (const [scope, allowed] of Object.entries(expected)) {
      const { token } = await issue([scope]);
      const got = await statuses(token, merchant);
      const want = Object.fromEntries(Object.keys(got).map((k) => [k, allowed[k] ?? deny]));
      assert.deepEqual(got, want, `scope ${scope}`);
    }
    const { token } = await issue(['metrics']);
    const refused = await request(`${ops}/ops/v1/merchants/${merchant}/api-keys`, { headers: bearer(token) });
    assert.equal(refused.json.success, false);
    assert.equal(refused.json.message.code, '2019');
  });

  it('an unknown token is a 401; a revoked token is refused at once; a rotated token is replaced at once', async () => {
    assert.equal((await request(`${ops}/ops/v1/audit`, { headers: bearer('mgwop_not-a-token-of-this-gateway') })).status, 401);
    const { name, token } = await issue(['read']);
    assert.equal((await request(`${ops}/ops/v1/audit`, { headers: bearer(token) })).status, 200);
    const rotated = await request(`${ops}/ops/v1/operator-tokens/${name}/rotate`, { method: 'POST', headers: breakGlass() });
    assert.equal(rotated.status, 200, rotated.text);
    const fresh = rotated.json.data.token as string;
    assert.notEqual(fresh, token);
    const old = await request(`${ops}/ops/v1/audit`, { headers: bearer(token) });
    assert.equal(old.status, 401);
    assert.equal(old.json.message.code, '2014');
    assert.equal((await request(`${ops}/ops/v1/audit`, { headers: bearer(fresh) })).status, 200);
    const revoked = await request(`${ops}/ops/v1/operator-tokens/${name}/revoke`, { method: 'POST', headers: breakGlass() });
    assert.equal(revoked.status, 200, revoked.text);
    assert.ok(revoked.json.data.revokedAt);
    assert.equal((await request(`${ops}/ops/v1/audit`, { headers: bearer(fresh) })).status, 401);
    // A revoked name is not rotated back to life, nor given again.
    assert.equal(
      (await request(`${ops}/ops/v1/operator-tokens/${name}/rotate`, { method: 'POST', headers: breakGlass() })).status,
      404,
    );
    const again = await request(`${ops}/ops/v1/operator-tokens`, { body: { name, scopes: ['read'] }, headers: breakGlass() });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.json.message.code, '2066');
  });

  it('keeps only the SHA-256 of a token and lists names and scopes, never a token', async () => {
    const { name, token } = await issue(['money', 'read', 'money']);
    const doc = await gw.rt.store.db.collection('operator_tokens').findOne({ _id: name as never });
    assert.ok(doc);
    assert.equal(doc.tokenHash, createHash('sha256').update(token).digest('hex'));
    assert.ok(!JSON.stringify(doc).includes(token));
    const listed = await request(`${ops}/ops/v1/operator-tokens`, { headers: breakGlass() });
    assert.equal(listed.status, 200, listed.text);
    assert.ok(!listed.text.includes(token));
    const mine = (listed.json.data.tokens as { name: string; scopes: string[]; revokedAt: null }[]).find((t) => t.name === name);
    assert.deepEqual(mine && { scopes: mine.scopes, revokedAt: mine.revokedAt }, { scopes: ['read', 'money'], revokedAt: null });
  });

  it("refuses a bad request with a 400 and stores nothing: an unknown scope, a bad name, a stored token's break-glass name", async () => {
    const before = await gw.rt.store.db.collection('operator_tokens').countDocuments();
    for (const [body, status] of [
      [{ name: 'x', scopes: ['everything'] }, 400],
      [{ name: 'Bad Name!', scopes: ['read'] }, 400],
      [{ name: 'x', scopes: [] }, 400],
      [{ name: 'ops-token', scopes: ['read'] }, 409],
    ] as const) {
      const res = await request(`${ops}/ops/v1/operator-tokens`, { body, headers: breakGlass() });
      assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
    }
    assert.equal(await gw.rt.store.db.collection('operator_tokens').countDocuments(), before);
  });

  it("records creation, rotation and revocation in the audit trail, and a token's actions under its name", async () => {
    const { name } = await issue(['read']);
    await request(`${ops}/ops/v1/operator-tokens/${name}/rotate`, { method: 'POST', headers: breakGlass() });
    await request(`${ops}/ops/v1/operator-tokens/${name}/revoke`, { method: 'POST', headers: breakGlass() });
    const money = await issue(['money']);
    const merchant = await newMerchant();
    const held = await request(`${ops}/ops/v1/merchants/${merchant}/settlements/hold`, {
      method: 'POST',
      headers: bearer(money.token),
    });
    assert.equal(held.status, 200, held.text);
    const trail = await request(`${ops}/ops/v1/audit?limit=500`, { headers: breakGlass() });
    const records = trail.json.data.records as {
      action: string;
      actor: { name?: string };
      merchantIdentifier: string | null;
      detail: { name?: string };
    }[];
    const ofToken = records
      .filter((r) => r.detail.name === name)
      .map((r) => [r.action, r.actor.name, r.merchantIdentifier ?? null]);
    assert.deepEqual(ofToken, [
      ['operator_token.revoked', 'ops-token', null],
      ['operator_token.rotated', 'ops-token', null],
      ['operator_token.created', 'ops-token', null],
    ]);
    const hold = records.find((r) => r.action === 'settlements.held' && r.merchantIdentifier === merchant);
    assert.equal(hold?.actor.name, money.name);
  });

  it('the CLI creates, lists, rotates and revokes tokens on the operator listener; a token without the tokens scope may not', async () => {
    const name = `cli-${Date.now().toString(36)}`;
    const cli = async (args: string[], token = gw.rt.config.secrets.opsToken) => {
      const run = await runCli(['operator-tokens', ...args], cliEnvFor(gw, { OPS_TOKEN: token }));
      return { ...run, out: run.code === 0 ? JSON.parse(run.stdout) : undefined };
    };
    const created = await cli(['create', '--name', name, '--scope', 'metrics,read']);
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual(created.out.scopes, ['read', 'metrics']);
    assert.equal((await request(`${ops}/metrics`, { headers: bearer(created.out.token) })).status, 200);
    const refused = await cli(['create', '--name', `${name}-2`, '--scope', 'tokens'], created.out.token);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /2019/);
    const usage = await cli(['create', '--name', name, '--scope', 'everything']);
    assert.equal(usage.code, 2, usage.stderr);
    const rotated = await cli(['rotate', name]);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.equal((await request(`${ops}/metrics`, { headers: bearer(created.out.token) })).status, 401);
    assert.equal((await cli(['revoke', name])).code, 0);
    assert.equal((await request(`${ops}/metrics`, { headers: bearer(rotated.out.token) })).status, 401);
    const listed = await cli(['list']);
    const mine = (listed.out.tokens as { name: string; revokedAt: string | null; rotatedAt: string | null }[]).find(
      (t) => t.name === name,
    );
    assert.ok(mine?.revokedAt && mine.rotatedAt);
  });

  it('the tokens scope grants no more than it holds: only the break-glass token creates a tokens token or rotates another', async () => {
    const admin = await issue(['tokens']);
    const other = await issue(['money']);
    const stored = () => gw.rt.store.db.collection('operator_tokens').countDocuments();
    const before = await stored();
    for (const scopes of [['tokens'], ['read', 'tokens']]) {
      const res = await request(`${ops}/ops/v1/operator-tokens`, {
        body: { name: `esc-${run++}`, scopes },
        headers: bearer(admin.token),
      });
      assert.equal(res.status, 403, res.text);
      assert.equal(res.json.message.code, '2019');
    }
    assert.equal(await stored(), before, 'nothing stored');
    // Rotating another's token would hand its token (and its scopes) to the caller.
    const stolen = await request(`${ops}/ops/v1/operator-tokens/${other.name}/rotate`, {
      method: 'POST',
      headers: bearer(admin.token),
    });
    assert.equal(stolen.status, 403, stolen.text);
    assert.ok(!stolen.text.includes('mgwop_'));
    const merchant = await newMerchant();
    const hold = `${ops}/ops/v1/merchants/${merchant}/settlements/hold`;
    assert.equal((await request(hold, { method: 'POST', headers: bearer(other.token) })).status, 200, 'still its token');
    // A named token rotates itself; the break-glass token rotates any; revoking stays with tokens.
    const self = await request(`${ops}/ops/v1/operator-tokens/${admin.name}/rotate`, {
      method: 'POST',
      headers: bearer(admin.token),
    });
    assert.equal(self.status, 200, self.text);
    const renewed = self.json.data.token as string;
    assert.equal((await request(`${ops}/ops/v1/operator-tokens`, { headers: bearer(admin.token) })).status, 401);
    const byBreakGlass = await request(`${ops}/ops/v1/operator-tokens/${other.name}/rotate`, {
      method: 'POST',
      headers: breakGlass(),
    });
    assert.equal(byBreakGlass.status, 200, byBreakGlass.text);
    const revoked = await request(`${ops}/ops/v1/operator-tokens/${other.name}/revoke`, {
      method: 'POST',
      headers: bearer(renewed),
    });
    assert.equal(revoked.status, 200, revoked.text);
  });

  it('a tokens token grants no money scope: one holder cannot mint two operators and change a settlement account alone', async () => {
    const lead = await issue(['tokens']);
    const stored = () => gw.rt.store.db.collection('operator_tokens').countDocuments();
    const before = await stored();
    for (const scopes of [['money'], ['read', 'money'], ['merchant-admin', 'money']]) {
      const res = await request(`${ops}/ops/v1/operator-tokens`, {
        body: { name: `mint-${run++}`, scopes },
        headers: bearer(lead.token),
      });
      assert.equal(res.status, 403, `${scopes.join(',')}: ${res.text}`);
      assert.equal(res.json.message.code, '2019');
      assert.ok(!res.text.includes('mgwop_'));
    }
    assert.equal(await stored(), before, 'nothing stored');
    // What the refusal prevents: two money tokens, one proposing and the other confirming, move the
    // merchant's settlements to an account of their holder's choosing with no one else involved.
    const merchant = await newMerchant();
    const m = `${ops}/ops/v1/merchants/${merchant}`;
    const proposed = await request(`${m}/settlement-account`, {
      method: 'PUT',
      body: { ifsc: 'HDFC0001234', accountNumber: '999988887777', holderName: 'Not The Merchant' },
      headers: breakGlass(),
    });
    assert.equal(proposed.status, 202, proposed.text);
    // The lead's other jobs stay theirs to grant.
    const reader = await request(`${ops}/ops/v1/operator-tokens`, {
      body: { name: `mint-${run++}`, scopes: ['read', 'merchant-admin', 'metrics', 'codec'] },
      headers: bearer(lead.token),
    });
    assert.equal(reader.status, 201, reader.text);
    const confirm = await request(`${m}/settlement-account/confirm`, {
      body: {
        proposedAt: proposed.json.data.pendingChange.proposedAt as string,
        accountLast4: '7777',
      },
      headers: bearer(reader.json.data.token as string),
    });
    assert.equal(confirm.status, 403, confirm.text);
    assert.equal((await request(`${m}/settlement-account`, { headers: breakGlass() })).json.data.settlementAccount, null);
  });

  it("a merchant-admin token invites a merchant's first owner only: no second owner (who would change the bank account alone) but by the break-glass token", async () => {
    const admin = await issue(['merchant-admin']);
    const merchant = await newMerchant();
    const invitations = `${ops}/ops/v1/merchants/${merchant}/invitations`;
    const inviteAs = (token: string, email: string, role = 'owner') =>
      request(invitations, { body: { email, role }, headers: bearer(token) });
    const stored = () => gw.rt.store.db.collection('dashboard_invitations').countDocuments({ merchantIdentifier: merchant });

    const first = await inviteAs(admin.token, newEmail('first'));
    assert.equal(first.status, 201, first.text);
    // While the first owner's invitation is open, and once it is accepted: no other owner.
    const open = await inviteAs(admin.token, newEmail('second'));
    assert.equal(open.status, 403, open.text);
    assert.equal(open.json.message.code, '2019');
    const client = new FormClient(gw.baseUrl);
    const accepted = await accept(client, `${gw.baseUrl}${new URL(first.json.data.invitationUrl as string).pathname}`);
    assert.equal(accepted.status, 303, accepted.text.slice(0, 300));
    const before = await stored();
    const mine = newEmail('mine');
    const again = await inviteAs(admin.token, mine);
    assert.equal(again.status, 403, again.text);
    assert.ok(!again.text.includes('/dashboard/invitations/'), 'no link');
    assert.equal(await stored(), before, 'nothing stored');
    assert.equal(await gw.rt.store.db.collection('dashboard_users').countDocuments({ _id: mine as never }), 0);

    // Other roles stay the merchant-admin's to invite; a locked-out merchant's new owner is the break-glass token's.
    assert.equal((await inviteAs(admin.token, newEmail('dev'), 'developer')).status, 201);
    assert.equal((await inviteAs(gw.rt.config.secrets.opsToken, newEmail('recovery'))).status, 201);
  });

  it('listing operator tokens needs the tokens scope: a read token is refused', async () => {
    const reader = await issue(['read']);
    const res = await request(`${ops}/ops/v1/operator-tokens`, { headers: bearer(reader.token) });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.json.message.code, '2019');
    const admin = await issue(['tokens'], `lister-${run++}`.slice(0, 30));
    assert.equal((await request(`${ops}/ops/v1/operator-tokens`, { headers: bearer(admin.token) })).status, 200);
  });

  it("a merchant's secret key and new API keys (they sign refunds) need money besides merchant-admin", async () => {
    const merchant = await newMerchant();
    const m = `${ops}/ops/v1/merchants/${merchant}`;
    const secretBefore = (await gw.rt.merchants.findById(merchant))!.secretKey;
    const keysBefore = (await gw.rt.merchants.listApiKeys(merchant))!.length;
    const admin = await issue(['merchant-admin']);
    for (const [path, body] of [
      ['/api-keys', { label: 'x' }],
      ['/secret-key/rotate', {}],
    ] as const) {
      const res = await request(`${m}${path}`, { body, headers: bearer(admin.token) });
      assert.equal(res.status, 403, `${path}: ${res.text}`);
      assert.equal(res.json.message.code, '2019');
    }
    assert.equal((await gw.rt.merchants.findById(merchant))!.secretKey, secretBefore, 'the secret key unchanged');
    assert.equal((await gw.rt.merchants.listApiKeys(merchant))!.length, keysBefore, 'no API key created');
    const both = await issue(['merchant-admin', 'money']);
    assert.equal((await request(`${m}/api-keys`, { body: { label: 'x' }, headers: bearer(both.token) })).status, 201);
    assert.equal((await request(`${m}/secret-key/rotate`, { body: {}, headers: bearer(both.token) })).status, 200);
  });

  it("records the operator listener's real peer address, whatever X-Forwarded-For says", async () => {
    const res = await request(`${ops}/ops/v1/merchants`, {
      body: { name: 'Forwarded Stores' },
      headers: { ...breakGlass(), 'x-forwarded-for': '203.0.113.9' },
    });
    assert.equal(res.status, 201, res.text);
    const mid = res.json.data.merchantIdentifier as string;
    const trail = await request(`${ops}/ops/v1/audit?merchantIdentifier=${mid}`, { headers: breakGlass() });
    const created = (trail.json.data.records as { action: string; from: string }[]).find((r) => r.action === 'merchant.created');
    assert.match(String(created?.from), /^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  it("keeps a webhook URL's origin and path only in the audit trail: no userinfo, no query", async () => {
    // The shared gateway: the dashboard's helpers invite on its one listener.
    const { gw: shared, merchant } = await gatewayWithNewMerchant('Hooked Stores');
    const mid = merchant.merchantIdentifier;
    const owner = await dashboardUser(shared, mid, 'owner');
    const url = 'https://hookuser:hookpass@example.com/hooks/pay?token=querysecret';
    const saved = await owner.client.post('/dashboard/webhooks/settings', { webhookUrl: url, webhookFormat: 'json' });
    assert.equal(saved.status, 303, saved.text.slice(0, 300));
    assert.equal((await shared.rt.merchants.findById(mid))!.webhookUrl, url, 'the setting itself is kept whole');
    const trail = await request(`${shared.baseUrl}/ops/v1/audit?merchantIdentifier=${mid}`, {
      headers: bearer(shared.rt.config.secrets.opsToken),
    });
    const records = trail.json.data.records as { action: string; detail: { webhookUrl?: string } }[];
    assert.equal(
      records.find((r) => r.action === 'webhook.settings_changed')?.detail.webhookUrl,
      'https://example.com/hooks/pay',
    );
    assert.ok(!/hookpass|querysecret|hookuser/.test(trail.text));
  });

  it('staging and production refuse to serve the API without an operator listener of its own', async () => {
    const staging = loadConfig({
      GATEWAY_ENV: 'staging',
      MASTER_KEY: gw.rt.config.secrets.masterKey,
      OPS_TOKEN: gw.rt.config.secrets.opsToken,
      PUBLIC_BASE_URL: 'https://pay.example.in',
      UPI_PAYEE_VPA: 'gateway@examplebank',
      TEMPORAL_TLS_CA_FILE: '/tls/ca.pem',
      TEMPORAL_TLS_CERT_FILE: '/tls/client.pem',
      TEMPORAL_TLS_KEY_FILE: '/tls/client.key',
      API_PORT: String(await freePort()),
    });
    // Refused before anything listens: no runtime is needed beyond the configuration.
    await assert.rejects(serveApi({ config: staging } as Runtime), /OPS_PORT: required in staging/);
  });
});
