import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { accept, DASHBOARD_PASSWORD, dashboardUser, FormClient, invite, newEmail } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

/**
 * The merchant dashboard's foundation over real HTTP, as a browser without script would use it:
 * invitations, sign-in, sessions, CSRF, roles, tenant isolation and the sign-in throttle.
 */
describe('Merchant dashboard: invitations, sign-in, sessions, CSRF, roles (/dashboard)', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Kaveri Spices')));

  const users = () => gw.rt.store.db.collection<{ _id: string; role: string; merchantIdentifier: string }>('dashboard_users');
  const invitations = () =>
    gw.rt.store.db.collection<{ email: string; expiresAt: Date; usedAt: Date | null }>('dashboard_invitations');
  const roleOf = async (email: string) => (await users().findOne({ _id: email }))?.role;

  describe('invitations and sign-in', () => {
    it("the operator's one-time link creates the first owner, who signs in to the merchant's own dashboard", async () => {
      const email = newEmail('owner');
      const link = await invite(gw, merchant.merchantIdentifier, email);
      const client = new FormClient(gw.baseUrl);
      const page = await client.send(link);
      assert.equal(page.status, 200);
      assert.match(page.text, /Join Kaveri Spices/);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const accepted = await accept(client, link);
      assert.equal(accepted.status, 303);
      assert.equal((await users().findOne({ _id: email }))?.merchantIdentifier, merchant.merchantIdentifier);

      const signedIn = await client.signIn(email);
      assert.equal(signedIn.status, 303);
      const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('gw_dashboard='));
      assert.ok(cookie, 'a session cookie is set');
      assert.match(cookie, /httponly/i);
      assert.match(cookie, /samesite=strict/i);
      assert.match(cookie, /path=\/dashboard/i);
      const stored = await gw.rt.store.db.collection('dashboard_sessions').findOne({ email });
      assert.ok(stored, 'the session is stored');
      assert.notEqual(stored._id, /gw_dashboard=([^;]+)/.exec(cookie)![1], 'only the hash of the token is stored');

      const home = await client.send('/dashboard');
      assert.equal(home.status, 200);
      assert.match(home.text, new RegExp(merchant.merchantIdentifier));
      assert.match(home.text, /<nav aria-label="Dashboard">/);
      assert.match(home.text, /aria-current="page"/);
    });

    it('a used invitation link is refused (410) and changes nothing', async () => {
      const email = newEmail('owner');
      const link = await invite(gw, merchant.merchantIdentifier, email);
      const late = new FormClient(gw.baseUrl);
      const csrf = await late.csrfOf(link); // the same link open in a second browser
      assert.equal((await accept(new FormClient(gw.baseUrl), link)).status, 303);
      const before = await users().findOne({ _id: email });
      const other = 'another long password here';
      const again = await late.send(link, { form: { csrf, password: other, passwordAgain: other } });
      assert.equal(again.status, 410);
      assert.match(again.text, /used already, has expired or never existed/);
      assert.deepEqual(await users().findOne({ _id: email }), before, 'the password is the first one still');
      assert.equal((await new FormClient(gw.baseUrl).signIn(email, other)).status, 401);
      assert.equal((await late.send(link)).status, 410);
      assert.equal((await new FormClient(gw.baseUrl).signIn(email)).status, 303);
    });

    it('an expired invitation link is refused (410) and creates no user', async () => {
      const email = newEmail('owner');
      const link = await invite(gw, merchant.merchantIdentifier, email);
      const client = new FormClient(gw.baseUrl);
      const csrf = await client.csrfOf(link); // the page was open while the link expired
      await invitations().updateOne({ email }, { $set: { expiresAt: new Date(gw.rt.now().getTime() - 1000) } });
      const res = await client.send(link, { form: { csrf, password: DASHBOARD_PASSWORD, passwordAgain: DASHBOARD_PASSWORD } });
      assert.equal(res.status, 410);
      assert.equal(await users().countDocuments({ _id: email }), 0);
      assert.equal((await client.send(link)).status, 410);
      assert.equal((await client.send('/dashboard/invitations/not-a-token')).status, 410);
    });

    it('a short password or two different ones are refused on the page; the link still works afterwards', async () => {
      const email = newEmail('owner');
      const link = await invite(gw, merchant.merchantIdentifier, email);
      const client = new FormClient(gw.baseUrl);
      const short = await client.send(link, {
        form: { csrf: await client.csrfOf(link), password: 'short', passwordAgain: 'short' },
      });
      assert.equal(short.status, 400);
      assert.match(short.text, /at least 12 characters/);
      const differ = await client.send(link, {
        form: { csrf: await client.csrfOf(link), password: DASHBOARD_PASSWORD, passwordAgain: `${DASHBOARD_PASSWORD}!` },
      });
      assert.equal(differ.status, 400);
      assert.equal(await users().countDocuments({ _id: email }), 0);
      assert.equal((await accept(client, link)).status, 303);
    });

    it('the ops API refuses bad invitations: unknown field, bad email or role, unknown merchant, existing account, no token', async () => {
      const url = `${gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}/invitations`;
      const auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
      const before = await invitations().countDocuments({});
      for (const body of [
        { email: 'a@b.example', extra: 1 },
        { email: 'not an email' },
        { email: 'a@b.example', role: 'admin' },
        {},
      ]) {
        const res = await request(url, { body, headers: auth });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.text, /2002/);
      }
      const unknown = await request(`${gw.baseUrl}/ops/v1/merchants/ffffffffffffffffffffffffffffffff/invitations`, {
        body: { email: newEmail() },
        headers: auth,
      });
      assert.equal(unknown.status, 404);
      assert.match(unknown.text, /2042/);
      assert.equal((await request(url, { body: { email: newEmail() } })).status, 401);
      const { email } = await dashboardUser(gw, merchant.merchantIdentifier);
      const taken = await request(url, { body: { email: email.toUpperCase() }, headers: auth });
      assert.equal(taken.status, 400);
      assert.match(taken.text, /dashboard account already/);
      assert.equal(await invitations().countDocuments({}), before + 1, 'only the accepted one was stored');
    });

    it('a wrong password or an unknown email is the same 401 page; signed out, pages send to the sign-in', async () => {
      const { email } = await dashboardUser(gw, merchant.merchantIdentifier);
      const wrong = await new FormClient(gw.baseUrl).signIn(email, 'not the password at all');
      const unknown = await new FormClient(gw.baseUrl).signIn(newEmail(), 'not the password at all');
      assert.equal(wrong.status, 401);
      assert.equal(unknown.status, 401);
      assert.match(wrong.text, /Wrong email or password/);
      assert.match(unknown.text, /Wrong email or password/);
      const away = await new FormClient(gw.baseUrl).send('/dashboard/users');
      assert.equal(away.status, 303);
      assert.equal(away.location, '/dashboard/sign-in?next=%2Fdashboard%2Fusers');
      const missing = await new FormClient(gw.baseUrl).send('/dashboard/no-such-page');
      assert.equal(missing.status, 404);
      assert.match(missing.headers.get('content-type') ?? '', /text\/html/);
    });
  });

  describe('CSRF', () => {
    it('a change without the CSRF token, with a stale one or from another origin is refused (403) and changes nothing', async () => {
      const owner = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
      const viewer = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer');
      const path = `/dashboard/users/${encodeURIComponent(viewer.email)}/role`;

      const missing = await owner.client.send(path, { form: { role: 'owner' } });
      assert.equal(missing.status, 403);
      assert.match(missing.text, /nothing was changed/);

      // A token of an earlier session of the same user: stale once that session ended.
      const stale = await owner.client.csrfOf('/dashboard');
      await owner.client.post('/dashboard/sign-out', {});
      assert.equal((await owner.client.signIn(owner.email)).status, 303);
      assert.equal((await owner.client.send(path, { form: { csrf: stale, role: 'owner' } })).status, 403);

      const current = await owner.client.csrfOf('/dashboard');
      const foreign = await owner.client.send(path, {
        form: { csrf: current, role: 'owner' },
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(foreign.status, 403);
      assert.equal(await roleOf(viewer.email), 'viewer', 'nothing changed');

      const done = await owner.client.send(path, { form: { csrf: current, role: 'developer', password: DASHBOARD_PASSWORD } });
      assert.equal(done.status, 303);
      assert.equal(await roleOf(viewer.email), 'developer', 'the same change with the token goes through');
    });

    it('a wrong token, a form over MAX_BODY_BYTES or of another media type is the 403 "Form expired" page, nothing changed; signed out, the sign-in', async () => {
      const owner = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
      const viewer = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer');
      const path = `/dashboard/users/${encodeURIComponent(viewer.email)}/role`;
      const current = await owner.client.csrfOf('/dashboard');
      const change = { role: 'developer', password: DASHBOARD_PASSWORD };
      const expired = (res: { status: number; text: string }, what: string) => {
        assert.equal(res.status, 403, what);
        assert.match(res.text, /Form expired/, what);
        assert.match(res.text, /nothing was changed/, what);
      };

      expired(await owner.client.send(path, { form: { csrf: 'x'.repeat(current.length), ...change } }), 'a wrong token');
      const limit = gw.rt.config.http.maxBodyBytes;
      const oversized = { csrf: current, ...change, padding: 'x'.repeat(limit) };
      expired(await owner.client.send(path, { form: oversized }), 'a form over the limit');
      const asJson = await owner.client.send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ csrf: current, ...change }),
      });
      expired(asJson, 'another media type');
      assert.equal(await roleOf(viewer.email), 'viewer', 'nothing changed');

      const signedOut = await new FormClient(gw.baseUrl).send(path, { form: { csrf: current, ...change } });
      assert.equal(signedOut.status, 303);
      assert.equal(signedOut.location, '/dashboard/sign-in');
      assert.equal(await roleOf(viewer.email), 'viewer', 'nothing changed signed out either');
      // Without a session cookie the form is not read at all: an oversized one goes to the sign-in too.
      const signedOutOversized = await new FormClient(gw.baseUrl).send(path, { form: oversized });
      assert.equal(signedOutOversized.status, 303);
      assert.equal(signedOutOversized.location, '/dashboard/sign-in');

      const done = await owner.client.send(path, { form: { csrf: current, ...change } });
      assert.equal(done.status, 303, 'the same form, as the page sends it, goes through');
      assert.equal(await roleOf(viewer.email), 'developer');
    });

    it('the sign-in form without its token is refused (403) and creates no session', async () => {
      const { email } = await dashboardUser(gw, merchant.merchantIdentifier);
      const sessions = () => gw.rt.store.db.collection('dashboard_sessions').countDocuments({ email });
      const before = await sessions();
      const res = await new FormClient(gw.baseUrl).send('/dashboard/sign-in', {
        form: { csrf: 'x'.repeat(24), email, password: DASHBOARD_PASSWORD },
      });
      assert.equal(res.status, 403);
      assert.equal(await sessions(), before);
    });
  });

  describe('roles and tenants', () => {
    it('a viewer is refused every change (403), nothing stored', async () => {
      const owner = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
      const viewer = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer');
      const before = await invitations().countDocuments({});
      const inviting = await viewer.client.post('/dashboard/users/invitations', { email: newEmail(), role: 'owner' });
      assert.equal(inviting.status, 403);
      assert.match(inviting.text, /Your role \(viewer\) cannot do this/);
      assert.equal(await invitations().countDocuments({}), before);
      const promoting = await viewer.client.post(`/dashboard/users/${encodeURIComponent(viewer.email)}/role`, { role: 'owner' });
      assert.equal(promoting.status, 403);
      const removing = await viewer.client.post(`/dashboard/users/${encodeURIComponent(owner.email)}/remove`, {});
      assert.equal(removing.status, 403);
      assert.equal(await roleOf(viewer.email), 'viewer');
      assert.equal(await roleOf(owner.email), 'owner');
      const list = await viewer.client.send('/dashboard/users');
      assert.equal(list.status, 200, 'a viewer reads');
      assert.doesNotMatch(list.text, /Create invitation link/, 'and is offered no change');
      const account = await viewer.client.send('/dashboard/account');
      assert.equal(account.status, 200);
      assert.match(account.text, /Role: <strong id="role">viewer<\/strong>\. You can read everything and change nothing\./);
    });

    it("another merchant's user in an address is 404 and stays as it was; lists show only the merchant's own", async () => {
      const other = await gw.newMerchant('Other Merchant');
      const stranger = await dashboardUser(gw, other.merchantIdentifier, 'viewer');
      const owner = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
      const role = await owner.client.post(`/dashboard/users/${encodeURIComponent(stranger.email)}/role`, { role: 'owner' });
      assert.equal(role.status, 404);
      const remove = await owner.client.post(`/dashboard/users/${encodeURIComponent(stranger.email)}/remove`, {});
      assert.equal(remove.status, 404);
      assert.equal(await roleOf(stranger.email), 'viewer');
      const list = await owner.client.send('/dashboard/users');
      assert.doesNotMatch(list.text, new RegExp(stranger.email.replace(/\./g, '\\.')));
      assert.doesNotMatch((await stranger.client.send('/dashboard')).text, new RegExp(merchant.merchantIdentifier));
    });

    it('an owner invites a developer from the dashboard; the link is shown once and works', async () => {
      const owner = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
      const email = newEmail('dev');
      const res = await owner.client.post('/dashboard/users/invitations', { email, role: 'developer' });
      assert.equal(res.status, 201);
      const link = /<code id="invitation-url">([^<]+)<\/code>/.exec(res.text)?.[1];
      assert.ok(link);
      const dev = new FormClient(gw.baseUrl);
      assert.equal((await accept(dev, `${gw.baseUrl}${new URL(link).pathname}`)).status, 303);
      assert.equal(await roleOf(email), 'developer');
      assert.doesNotMatch((await owner.client.send('/dashboard/users')).text, /invitation-url/, 'not shown again');
    });

    it('a removed user is signed out at once; sign-out everywhere ends every session of the user', async () => {
      const owner = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
      const dev = await dashboardUser(gw, merchant.merchantIdentifier, 'developer');
      assert.equal((await owner.client.post(`/dashboard/users/${encodeURIComponent(dev.email)}/remove`, {})).status, 303);
      assert.equal((await dev.client.send('/dashboard')).status, 303);

      const second = new FormClient(gw.baseUrl);
      assert.equal((await second.signIn(owner.email)).status, 303);
      assert.equal((await second.send('/dashboard')).status, 200);
      assert.equal((await owner.client.post('/dashboard/sign-out-everywhere', {})).status, 303);
      assert.equal((await second.send('/dashboard')).status, 303, 'the other browser is signed out too');
      assert.equal((await owner.client.send('/dashboard')).status, 303);
      assert.equal(await gw.rt.store.db.collection('dashboard_sessions').countDocuments({ email: owner.email }), 0);
    });
  });

  describe('sign-in throttle', () => {
    it('after 5 failed sign-ins the account is refused (429, Retry-After) even with the right password; other accounts sign in', async () => {
      const { email } = await dashboardUser(gw, merchant.merchantIdentifier);
      for (let i = 0; i < 5; i++)
        assert.equal((await new FormClient(gw.baseUrl).signIn(email, `wrong password ${i}`)).status, 401);
      const blocked = await new FormClient(gw.baseUrl).signIn(email);
      assert.equal(blocked.status, 429);
      assert.ok(Number(blocked.headers.get('retry-after')) > 0);
      assert.match(blocked.text, /Too many failed sign-ins/);
      assert.equal(await gw.rt.store.db.collection('dashboard_sessions').countDocuments({ email }), 1, 'only the first sign-in');
      await dashboardUser(gw, merchant.merchantIdentifier); // another account is not affected
    });
  });

  describe('Developers and Webhooks pages', () => {
    it('the settlement.processed opt-in: off by default, a checked box turns it on, an unchecked one off again', async () => {
      const dev = await dashboardUser(gw, merchant.merchantIdentifier, 'developer');
      const optIn = async () => (await gw.rt.merchants.findById(merchant.merchantIdentifier))!.settlementWebhook;
      const page = await dev.client.send('/dashboard/webhooks');
      assert.match(page.text, /<input type="checkbox" id="settlementWebhook" name="settlementWebhook" value="on" style/);
      assert.equal(await optIn(), false);

      const on = await dev.client.post('/dashboard/webhooks/settings', {
        webhookUrl: 'https://example.com/hook',
        webhookFormat: 'json',
        settlementWebhook: 'on',
      });
      assert.equal(on.status, 303);
      assert.equal(await optIn(), true);
      assert.match(
        (await dev.client.send('/dashboard/webhooks')).text,
        /id="settlementWebhook" name="settlementWebhook" value="on" checked/,
      );

      const off = await dev.client.post('/dashboard/webhooks/settings', {
        webhookUrl: 'https://example.com/hook',
        webhookFormat: 'json',
      });
      assert.equal(off.status, 303);
      assert.equal(await optIn(), false);
    });

    it("another merchant's API key, RSA key or webhook delivery in an address is 404 and stays as it was", async () => {
      const other = await gw.newMerchant('Other Merchant');
      const dev = await dashboardUser(gw, merchant.merchantIdentifier, 'developer');
      const otherKeyId = (await gw.rt.merchants.listApiKeys(other.merchantIdentifier))![0]!.keyId;
      assert.equal((await dev.client.post(`/dashboard/developers/api-keys/${otherKeyId}/revoke`, {})).status, 404);
      assert.equal((await gw.rt.merchants.listApiKeys(other.merchantIdentifier))![0]!.revokedAt, null);
      assert.equal((await dev.client.send(`/dashboard/developers/encryption-keys/${other.encryptionKeyId}.pem`)).status, 404);
      assert.equal(
        (await dev.client.post(`/dashboard/developers/encryption-keys/${other.encryptionKeyId}/retire`, {})).status,
        404,
      );

      const deliveries = gw.rt.store.db.collection<{ _id: string }>('webhook_deliveries');
      const deliveryId = `webhook:${other.merchantIdentifier}:foreign-${Date.now()}`;
      await deliveries.insertOne({
        _id: deliveryId,
        merchantIdentifier: other.merchantIdentifier,
        realtime: true,
        url: 'http://127.0.0.1:9/x',
        contentType: 'application/json',
        body: '{}',
        state: 'failed',
        attempts: [],
        createdAt: gw.rt.now(),
      } as never);
      const replay = await dev.client.post(`/dashboard/webhooks/deliveries/${encodeURIComponent(deliveryId)}/replay`, {});
      assert.equal(replay.status, 404);
      assert.equal(await deliveries.countDocuments({ replayOf: deliveryId } as never), 0, 'no replay was started');
      assert.doesNotMatch((await dev.client.send('/dashboard/webhooks')).text, new RegExp(deliveryId));
    });

    it('the signing secret is masked for every role; a rotation shows the new one once, to owners and developers only', async () => {
      const inForce = async () => (await gw.rt.merchants.webhookSigningSecrets(merchant.merchantIdentifier, gw.rt.now()))!;
      const [first] = await inForce();
      assert.ok(first);
      const viewer = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer');
      const dev = await dashboardUser(gw, merchant.merchantIdentifier, 'developer');
      for (const who of [viewer, dev]) {
        const page = await who.client.send('/dashboard/webhooks');
        assert.equal(page.status, 200);
        assert.ok(!page.text.includes(first.secret), 'the secret is not on the page');
        assert.ok(page.text.includes(`whsec_••••••••${first.secret.slice(-4)}`), 'it is shown masked');
      }
      assert.match((await viewer.client.send('/dashboard/webhooks')).text, /id="signing-secret-hidden"/);
      assert.equal((await viewer.client.post('/dashboard/webhooks/signing-secret/rotate', {})).status, 403);
      assert.equal((await inForce()).length, 1, 'the viewer rotated nothing');

      const rotated = await dev.client.post('/dashboard/webhooks/signing-secret/rotate', {});
      assert.equal(rotated.status, 200);
      const shown = /id="new-signing-secret" class="secret">([^<]+)</.exec(rotated.text)?.[1];
      const fresh = (await inForce()).find((s) => s.retiresAt === null)!;
      assert.equal(shown, fresh.secret, 'the new secret is shown in full on the answer to the rotation');
      const again = await dev.client.send('/dashboard/webhooks');
      assert.ok(!again.text.includes(fresh.secret) && !again.text.includes(first.secret), 'and never again');
      assert.ok(!(await viewer.client.send('/dashboard/webhooks')).text.includes(fresh.secret));
    });

    it('the secret key is masked on the Developers page for every role; its rotation shows it once (owners)', async () => {
      for (const role of ['viewer', 'developer', 'owner'] as const) {
        const page = await (await dashboardUser(gw, merchant.merchantIdentifier, role)).client.send('/dashboard/developers');
        assert.ok(!page.text.includes(merchant.secretKey), role);
        assert.match(page.text, new RegExp(`id="secret-key-masked">••••••••${merchant.secretKey.slice(-4)}<`), role);
      }
    });

    it('the settings form takes only its own fields: a developer cannot set defaultReturnUrl or turn auto-refund on', async () => {
      const dev = await dashboardUser(gw, merchant.merchantIdentifier, 'developer');
      const before = await gw.rt.merchants.findById(merchant.merchantIdentifier);
      const form = { webhookUrl: 'https://example.com/hook', webhookFormat: 'json' };
      const extra = await dev.client.post('/dashboard/webhooks/settings', { ...form, defaultReturnUrl: 'https://evil.example/' });
      assert.equal(extra.status, 400);
      assert.match(extra.text, /Unknown field defaultReturnUrl/);
      const refund = await dev.client.post('/dashboard/webhooks/settings', { ...form, autoRefund: 'on' });
      assert.equal(refund.status, 403);
      assert.deepEqual(await gw.rt.merchants.findById(merchant.merchantIdentifier), before, 'nothing changed');
      assert.match(
        (await dev.client.send('/dashboard/webhooks')).text,
        /id="autoRefund" name="autoRefund" value="on"[^>]* disabled/,
      );

      // An owner's auto-refund stays on when a developer saves the form (its disabled box is not posted).
      const owner = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
      assert.equal((await owner.client.post('/dashboard/webhooks/settings', { ...form, autoRefund: 'on' })).status, 303);
      assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))!.autoRefund, true);
      assert.equal((await dev.client.post('/dashboard/webhooks/settings', form)).status, 303);
      assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))!.autoRefund, true);
      assert.equal((await owner.client.post('/dashboard/webhooks/settings', form)).status, 303);
      assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))!.autoRefund, false, 'the owner turns it off');
    });

    it('a viewer is refused every key and webhook change (403), nothing changed', async () => {
      const viewer = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer');
      const before = await gw.rt.merchants.findById(merchant.merchantIdentifier);
      const keyId = (await gw.rt.merchants.listApiKeys(merchant.merchantIdentifier))![0]!.keyId;
      for (const [path, form] of [
        ['/dashboard/developers/api-keys', { label: 'sneaky' }],
        [`/dashboard/developers/api-keys/${keyId}/revoke`, {}],
        ['/dashboard/developers/secret-key/rotate', {}],
        ['/dashboard/developers/encryption-keys/rotate', {}],
        [
          '/dashboard/webhooks/settings',
          { webhookUrl: 'https://example.com/hook', webhookFormat: 'json', settlementWebhook: 'on' },
        ],
        ['/dashboard/webhooks/signing-secret/rotate', {}],
        ['/dashboard/webhooks/endpoint/enable', {}],
        ['/dashboard/webhooks/test', {}],
      ] as const) {
        assert.equal((await viewer.client.post(path, form)).status, 403, path);
      }
      const after = await gw.rt.merchants.findById(merchant.merchantIdentifier);
      assert.deepEqual(after, before);
      assert.equal((await gw.rt.merchants.listApiKeys(merchant.merchantIdentifier))!.length, 1);
    });

    it('a developer holds no credential that moves money: no new API key, no secret key rotation (403), nothing changed', async () => {
      const dev = await dashboardUser(gw, merchant.merchantIdentifier, 'developer');
      const before = await gw.rt.merchants.findById(merchant.merchantIdentifier);
      const page = await dev.client.send('/dashboard/developers');
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /Create API key|Rotate secret key/, 'the page offers neither');
      assert.match(page.text, /Rotate RSA key/, 'the RSA key is still theirs');
      for (const [path, form] of [
        ['/dashboard/developers/api-keys', { label: 'exfiltrated' }],
        ['/dashboard/developers/secret-key/rotate', {}],
      ] as const) {
        const refused = await dev.client.post(path, form);
        assert.equal(refused.status, 403, path);
        assert.doesNotMatch(refused.text, /new-api-key|new-secret-key/);
      }
      assert.deepEqual(await gw.rt.merchants.findById(merchant.merchantIdentifier), before);
      assert.equal((await gw.rt.merchants.listApiKeys(merchant.merchantIdentifier))!.length, 1);
      const keyId = (await gw.rt.merchants.listApiKeys(merchant.merchantIdentifier))![0]!.keyId;
      assert.equal(
        (await dev.client.post(`/dashboard/developers/api-keys/${keyId}/revoke`, {})).status,
        303,
        'revoking is theirs',
      );
    });

    it('bad forms are refused on the page with a message, nothing changed', async () => {
      const dev = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
      const noLabel = await dev.client.post('/dashboard/developers/api-keys', { label: '   ' });
      assert.equal(noLabel.status, 400);
      assert.match(noLabel.text, /give the key a label/);
      const extra = await dev.client.post('/dashboard/developers/api-keys', { label: 'ok', admin: 'yes' });
      assert.equal(extra.status, 400);
      assert.equal((await gw.rt.merchants.listApiKeys(merchant.merchantIdentifier))!.length, 1);

      const badUrl = await dev.client.post('/dashboard/webhooks/settings', {
        webhookUrl: 'ftp://example.com/x',
        webhookFormat: 'form',
      });
      assert.equal(badUrl.status, 400);
      assert.match(badUrl.text, /http\(s\)/);
      const metadata = await dev.client.post('/dashboard/webhooks/settings', {
        webhookUrl: 'http://169.254.169.254/latest',
        webhookFormat: 'form',
      });
      assert.equal(metadata.status, 400);
      assert.match(metadata.text, /refused/);
      const badFormat = await dev.client.post('/dashboard/webhooks/settings', { webhookUrl: '', webhookFormat: 'xml' });
      assert.equal(badFormat.status, 400);
      assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))!.webhookUrl, null);
      const noUrl = await dev.client.post('/dashboard/webhooks/test', {});
      assert.equal(noUrl.status, 409);
      assert.match(noUrl.text, /Set a webhook URL first/);
    });
  });
});
