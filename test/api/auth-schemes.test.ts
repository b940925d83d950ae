import { strict as assert } from 'node:assert';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { z } from 'zod';
import { authenticateApiKey, authenticateQrChecksum } from '../../src/api/middleware/authenticate';
import type { ApiDeps } from '../../src/api/deps';
import { Refusal } from '../../src/api/operation';
import { formDataChecksum } from '../../src/api/operation-auth';
import { readJson, readRawBody } from '../../src/api/middleware/body';
import { refusalsOfPath } from '../../src/api/app';
import { errorEnvelope } from '../../src/api/middleware/errors';
import { createLogger } from '../../src/logger';
import { buildSharedUseCases } from '../../src/main/use-cases/shared';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request, type HttpResult } from '../support/http';

/**
 * The three authentication schemes no endpoint uses yet (dynamic QR, mandates, API-key APIs), each
 * mounted on a small app of this test's own, against the real merchant repository over real HTTP.
 * Checksums are computed here with node:crypto, independently of the project's helpers.
 */
const hmac = (secretKey: string, payload: string) => createHmac('sha256', secretKey).update(payload, 'utf8').digest('hex');
const MAX_BODY_BYTES = 65536;

const qrSchema = z.object({
  merchantIdentifier: z.string(),
  orderId: z.string(),
  amount: z.number().int(),
  productDescription: z.string(),
  checksum: z.string().optional(),
});

describe('Authentication schemes: QR body checksum, form checksum, API key', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let server: Server;
  let baseUrl: string;
  let alice: MerchantCredentials;
  let bob: MerchantCredentials;
  /** What each route saw after authentication succeeded: a failure must never reach the handler. */
  let reached: { route: string; merchantIdentifier: string; data?: string }[];

  before(async () => {
    gw = await sharedGateway();
    [alice, bob] = await Promise.all([gw.newMerchant('Alice Traders'), gw.newMerchant('Bob Traders')]);
    // What the schemes find merchants with: the shared use cases, bound to the real repository.
    const merchants = buildSharedUseCases(gw.rt);

    const router = new Router();
    router.post('/qr', async (ctx) => {
      const { body } = await readJson(ctx, qrSchema, MAX_BODY_BYTES);
      const merchant = await authenticateQrChecksum(merchants, body, new Date());
      reached.push({ route: 'qr', merchantIdentifier: merchant.merchantIdentifier });
      ctx.body = { success: true, data: { merchantIdentifier: merchant.merchantIdentifier } };
    });
    router.post('/mandate', async (ctx) => {
      const raw = await readRawBody(ctx, 'application/x-www-form-urlencoded', MAX_BODY_BYTES);
      const form = new URLSearchParams(raw.toString('utf8'));
      const data = form.get('data') ?? '';
      // The mandate API's own scheme, as its operation runs it.
      const deps = { useCases: { shared: merchants }, now: () => new Date() } as unknown as ApiDeps;
      const merchant = await formDataChecksum.authenticate(ctx, deps, {
        raw,
        parsed: { data, checksum: form.get('checksum') ?? '' },
        valid: undefined,
      });
      if (merchant instanceof Refusal) throw new Error('the mandate scheme refuses only by throwing');
      reached.push({ route: 'mandate', merchantIdentifier: merchant.merchantIdentifier, data });
      ctx.body = { success: true, data: { merchantIdentifier: merchant.merchantIdentifier } };
    });
    router.get('/whoami', async (ctx) => {
      const merchant = await authenticateApiKey(ctx, merchants, new Date());
      reached.push({ route: 'whoami', merchantIdentifier: merchant.merchantIdentifier });
      ctx.body = { success: true, data: { merchantIdentifier: merchant.merchantIdentifier, name: merchant.name } };
    });

    const app = new Koa();
    app.use(errorEnvelope(createLogger('silent'), refusalsOfPath));
    app.use(router.routes());
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    reached = [];
  });

  const expectRefused = (res: HttpResult, code: string) => {
    assert.notEqual(res.status, 500, res.text);
    assert.equal(res.status, 401, res.text);
    assert.equal(res.json.success, false);
    assert.equal(res.json.message.code, code, res.text);
    assert.equal(typeof res.json.message.text, 'string');
    assert.equal('data' in res.json, false);
    assert.deepEqual(reached, [], 'the route must not run for a refused request');
  };
  const expectAccepted = (res: HttpResult, merchant: MerchantCredentials) => {
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.success, true);
    assert.equal(res.json.data.merchantIdentifier, merchant.merchantIdentifier);
  };

  describe('dynamic QR: body field checksum over merchantIdentifier + orderId + amount + productDescription', () => {
    const order = (m: { merchantIdentifier: string }) => ({
      merchantIdentifier: m.merchantIdentifier,
      orderId: `qr-${randomBytes(4).toString('hex')}`,
      amount: 10_000,
      productDescription: 'Masala chai',
    });
    const qrChecksum = (secretKey: string, o: ReturnType<typeof order>) =>
      hmac(secretKey, `${o.merchantIdentifier}${o.orderId}${o.amount}${o.productDescription}`);
    const post = (body: object) => request(`${baseUrl}/qr`, { body });

    it('the right merchant with the right checksum passes', async () => {
      const o = order(alice);
      const res = await post({ ...o, checksum: qrChecksum(alice.secretKey, o) });
      expectAccepted(res, alice);
      assert.deepEqual(reached, [{ route: 'qr', merchantIdentifier: alice.merchantIdentifier }]);
    });

    it('extra fields (buyerEmail, width, height) are not part of the checksum', async () => {
      const o = order(alice);
      expectAccepted(
        await post({ ...o, buyerEmail: 'a@b.example', width: 300, height: 300, checksum: qrChecksum(alice.secretKey, o) }),
        alice,
      );
    });

    it('a wrong checksum: 401 2011', async () => {
      const o = order(alice);
      expectRefused(await post({ ...o, checksum: '0'.repeat(64) }), '2011');
      expectRefused(await post({ ...o, checksum: 'not-a-checksum' }), '2011');
      // Signed for another amount: the amount is covered by the checksum.
      expectRefused(await post({ ...o, checksum: qrChecksum(alice.secretKey, { ...o, amount: 1 }) }), '2011');
      // Signed for another order or description.
      expectRefused(await post({ ...o, checksum: qrChecksum(alice.secretKey, { ...o, orderId: `${o.orderId}x` }) }), '2011');
      expectRefused(
        await post({ ...o, checksum: qrChecksum(alice.secretKey, { ...o, productDescription: 'Filter coffee' }) }),
        '2011',
      );
      // The right HMAC of the fields joined with separators is a different payload.
      const separated = hmac(alice.secretKey, [o.merchantIdentifier, o.orderId, o.amount, o.productDescription].join('|'));
      expectRefused(await post({ ...o, checksum: separated }), '2011');
    });

    it('a missing checksum: 401 2010', async () => {
      const o = order(alice);
      expectRefused(await post(o), '2010');
      expectRefused(await post({ ...o, checksum: '' }), '2010');
    });

    it('an unknown merchant: 401 2012', async () => {
      const o = order({ merchantIdentifier: randomBytes(16).toString('hex') });
      expectRefused(await post({ ...o, checksum: qrChecksum(alice.secretKey, o) }), '2012');
    });

    it("another merchant's secret: 401 2011", async () => {
      const o = order(alice);
      expectRefused(await post({ ...o, checksum: qrChecksum(bob.secretKey, o) }), '2011');
    });
  });

  describe('mandates: form field checksum over the exact data string', () => {
    const mandateData = (m: { merchantIdentifier: string }) => ({
      merchantIdentifier: m.merchantIdentifier,
      encryptionKeyId: 'ek_0000000000000000',
      orderDetail: {
        orderId: `mandate-${randomBytes(4).toString('hex')}`,
        amount: '10000',
        productDescription: 'Chai & snacks + more = ₹100',
      },
      paymentInstrument: { paymentMode: 'upiCollectMandate', upiMandate: { action: 'create' } },
    });
    const post = (fields: Record<string, string>) =>
      request(`${baseUrl}/mandate`, {
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });

    it('the right merchant with the checksum over the data string passes; the route sees those exact characters', async () => {
      const data = JSON.stringify(mandateData(alice));
      expectAccepted(await post({ data, checksum: hmac(alice.secretKey, data) }), alice);
      assert.deepEqual(reached, [{ route: 'mandate', merchantIdentifier: alice.merchantIdentifier, data }]);
    });

    it('checks the data exactly as sent: pretty-printed data signed as sent passes, signed compact fails', async () => {
      const doc = mandateData(alice);
      const compact = JSON.stringify(doc);
      const spaced = JSON.stringify(doc, null, 2);
      expectAccepted(await post({ data: spaced, checksum: hmac(alice.secretKey, spaced) }), alice);
      assert.equal(reached[0]?.data, spaced);
      reached = [];
      // The same document re-serialised with different spacing is not what was signed.
      expectRefused(await post({ data: spaced, checksum: hmac(alice.secretKey, compact) }), '2011');
      expectRefused(await post({ data: compact, checksum: hmac(alice.secretKey, spaced) }), '2011');
      expectRefused(await post({ data: `${compact} `, checksum: hmac(alice.secretKey, compact) }), '2011');
    });

    it('a wrong checksum: 401 2011', async () => {
      const data = JSON.stringify(mandateData(alice));
      expectRefused(await post({ data, checksum: 'f'.repeat(64) }), '2011');
      expectRefused(await post({ data, checksum: hmac(alice.secretKey, data).slice(0, 63) }), '2011');
      // A checksum over the form-encoded value rather than the decoded data string.
      expectRefused(await post({ data, checksum: hmac(alice.secretKey, encodeURIComponent(data)) }), '2011');
    });

    it('a missing checksum: 401 2010', async () => {
      const data = JSON.stringify(mandateData(alice));
      expectRefused(await post({ data }), '2010');
      expectRefused(await post({ data, checksum: '' }), '2010');
    });

    it('an unknown merchant: 401 2012', async () => {
      const data = JSON.stringify(mandateData({ merchantIdentifier: randomBytes(16).toString('hex') }));
      expectRefused(await post({ data, checksum: hmac(alice.secretKey, data) }), '2012');
    });

    it("another merchant's secret: 401 2011", async () => {
      const data = JSON.stringify(mandateData(alice));
      expectRefused(await post({ data, checksum: hmac(bob.secretKey, data) }), '2011');
    });
  });

  describe('API key: X-API-Key header, ctx.state.merchant', () => {
    const whoami = (headers: Record<string, string> = {}) => request(`${baseUrl}/whoami`, { headers });

    it('the right key: the route sees that merchant', async () => {
      const res = await whoami({ 'x-api-key': alice.apiKey });
      expectAccepted(res, alice);
      assert.equal(res.json.data.name, 'Alice Traders');
      assert.deepEqual(reached, [{ route: 'whoami', merchantIdentifier: alice.merchantIdentifier }]);
    });

    it("another merchant's key identifies that other merchant, never the first", async () => {
      const res = await whoami({ 'x-api-key': bob.apiKey });
      expectAccepted(res, bob);
      assert.notEqual(res.json.data.merchantIdentifier, alice.merchantIdentifier);
      assert.deepEqual(reached, [{ route: 'whoami', merchantIdentifier: bob.merchantIdentifier }]);
    });

    it('a missing key: 401 2013', async () => {
      expectRefused(await whoami(), '2013');
      expectRefused(await whoami({ 'x-api-key': '' }), '2013');
    });

    it('a wrong key: 401 2013', async () => {
      expectRefused(await whoami({ 'x-api-key': `mgw_${randomBytes(24).toString('base64url')}` }), '2013');
      expectRefused(await whoami({ 'x-api-key': `${alice.apiKey}x` }), '2013');
      expectRefused(await whoami({ 'x-api-key': alice.apiKey.slice(0, -1) }), '2013');
      // What the store holds (the SHA-256 of the key) is not itself a key.
      expectRefused(await whoami({ 'x-api-key': createHash('sha256').update(alice.apiKey).digest('hex') }), '2013');
      // The secret key is not an API key either.
      expectRefused(await whoami({ 'x-api-key': alice.secretKey }), '2013');
      // Sent in another header, the right key does not count.
      expectRefused(await whoami({ authorization: `Bearer ${alice.apiKey}` }), '2013');
    });
  });
});
