/**
 * Probes of the running production stack's operator credentials (`npm run test:production-stack`):
 * the operator API is not on the public port, and each narrow token the stack's parts hold (Caddy's
 * codec site, a Prometheus scraper) does its job and nothing else.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import type { StackSecrets } from '../../src/devstack/production/secrets';
import type { StackState } from '../../src/devstack/production/stack';
import { AesGcmPayloadCodec, codecKeysOf, ENCRYPTED_ENCODING } from '../../src/temporal/payload-codec';
import { request } from '../support/http';

type Wire = { metadata: Record<string, string>; data: string };
const toWire = (p: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }): Wire => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

const stateFile = process.env.PRODUCTION_STACK_STATE;

describe('the production stack: operator credentials by job', function () {
  if (!stateFile) {
    it('runs under npm run test:production-stack only (it starts the stack)', function () {
      this.skip();
    });
    return;
  }
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as StackState;
  const secrets = JSON.parse(readFileSync(path.join(state.dataDir, 'secrets.json'), 'utf8')) as StackSecrets;
  const publicUrl = state.publicUrl;
  const opsUrl = `http://127.0.0.1:${state.ports.ops[0]}`;
  const codecSite = `http://127.0.0.1:${state.ports.codec}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  let merchantIdentifier: string;

  before(async () => {
    const res = await request(`${opsUrl}/ops/v1/merchants`, {
      body: { name: 'Credential Probe' },
      headers: bearer(secrets.OPS_TOKEN),
    });
    assert.equal(res.status, 201, res.text);
    merchantIdentifier = res.json.data.merchantIdentifier;
  });

  it('the public port answers 404 for /ops/* and /metrics, however spelled, whatever the token', async () => {
    for (const route of [
      '/ops/v1/audit',
      '/ops/v1/merchants',
      '/OPS/v1/audit',
      '//ops/v1/audit',
      '/%6Fps/v1/audit',
      '/ops/v1/codec/decode',
      '/metrics',
    ]) {
      for (const token of [secrets.OPS_TOKEN, secrets.METRICS_TOKEN, secrets.CODEC_TOKEN]) {
        for (const method of ['GET', 'POST']) {
          const res = await request(`${publicUrl}${route}`, {
            method,
            headers: bearer(token),
            ...(method === 'POST' ? { body: {} } : {}),
          });
          assert.equal(res.status, 404, `${method} ${route}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    }
  });

  it('the metrics token scrapes /metrics on the operator listener and cannot read a merchant', async () => {
    const metrics = await request(`${opsUrl}/metrics`, { headers: bearer(secrets.METRICS_TOKEN) });
    assert.equal(metrics.status, 200, metrics.text.slice(0, 200));
    const m = `${opsUrl}/ops/v1/merchants/${merchantIdentifier}`;
    for (const url of [
      `${m}/api-keys`,
      `${m}/webhook-signing-secret`,
      `${m}/fee-plan`,
      `${m}/settlement-account`,
      `${opsUrl}/ops/v1/audit`,
    ]) {
      const res = await request(url, { headers: bearer(secrets.METRICS_TOKEN) });
      assert.equal(res.status, 403, `${url}: ${res.status} ${res.text.slice(0, 200)}`);
      assert.ok(!res.text.includes(merchantIdentifier) || res.json?.message?.code === '2019', url);
    }
  });

  it('the codec (Temporal UI’s codec endpoint, Caddy’s codec site): decodes what the workers seal with the codec token it adds, refuses without it', async () => {
    // A payload sealed as the gateway's processes seal Temporal payloads (AES-256-GCM under the
    // stack's MASTER_KEY): what Temporal UI finds in a workflow's history.
    const clear = { payerVpa: 'meera@okaxis', amountPaise: 25050 };
    const sealed = (
      await new AesGcmPayloadCodec(codecKeysOf(secrets.MASTER_KEY)).encode([defaultPayloadConverter.toPayload(clear)])
    ).map(toWire);
    assert.equal(Buffer.from(sealed[0]!.metadata.encoding!, 'base64').toString(), ENCRYPTED_ENCODING);
    assert.ok(!Buffer.from(sealed[0]!.data, 'base64').toString('latin1').includes('meera@okaxis'), 'sealed');

    // Through the codec site (the UI's browser sends no token; Caddy adds the codec-scoped one).
    const decoded = await request(`${codecSite}/ops/v1/codec/decode`, { body: { payloads: sealed } });
    assert.equal(decoded.status, 200, `the codec site adds the codec token: ${decoded.text}`);
    const [plain] = (decoded.json as { payloads: Wire[] }).payloads;
    assert.deepEqual(JSON.parse(Buffer.from(plain!.data, 'base64').toString()), clear, 'decoded to the clear payload');
    // Encode and back: the gateway seals under the same key the workers use.
    const encoded = await request(`${codecSite}/ops/v1/codec/encode`, { body: { payloads: [plain] } });
    assert.equal(encoded.status, 200, encoded.text);
    const [again] = (encoded.json as { payloads: Wire[] }).payloads;
    const opened = await new AesGcmPayloadCodec(codecKeysOf(secrets.MASTER_KEY)).decode([
      {
        metadata: Object.fromEntries(Object.entries(again!.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
        data: Buffer.from(again!.data, 'base64'),
      },
    ]);
    assert.deepEqual(JSON.parse(Buffer.from(opened[0]!.data!).toString()), clear);
    // A tampered payload is refused (400), never decoded.
    const tampered = {
      ...sealed[0]!,
      data: Buffer.from(Buffer.from(sealed[0]!.data, 'base64').map((b, i) => (i === 20 ? b ^ 1 : b))).toString('base64'),
    };
    assert.equal((await request(`${codecSite}/ops/v1/codec/decode`, { body: { payloads: [tampered] } })).status, 400);

    // Without the codec credential: the operator listener itself refuses no token, a wrong one and
    // a token of another job, and the public port has no codec at all.
    const direct = `${opsUrl}/ops/v1/codec/decode`;
    const none = await request(direct, { body: { payloads: sealed } });
    assert.equal(none.status, 401, `no token: ${none.text.slice(0, 200)}`);
    assert.ok(!none.text.includes('meera'), 'nothing decoded');
    const wrong = await request(direct, { body: { payloads: sealed }, headers: bearer(`mgwop_${'x'.repeat(43)}`) });
    assert.equal(wrong.status, 401, `a wrong token: ${wrong.text.slice(0, 200)}`);
    const metrics = await request(direct, { body: { payloads: sealed }, headers: bearer(secrets.METRICS_TOKEN) });
    assert.equal(metrics.status, 403, `the metrics token: ${metrics.text.slice(0, 200)}`);
    assert.ok(!metrics.text.includes('meera'), 'nothing decoded');
    const viaPublic = await request(`${publicUrl}/ops/v1/codec/decode`, { body: { payloads: sealed } });
    assert.equal(viaPublic.status, 404, 'no codec on the public port');
    // With the codec token itself, the operator listener decodes too (what the codec site sends).
    const withToken = await request(direct, { body: { payloads: sealed }, headers: bearer(secrets.CODEC_TOKEN) });
    assert.deepEqual(withToken.json, decoded.json);
  });

  it('the codec token cannot change anything, and the codec site forwards the codec only', async () => {
    assert.equal((await request(`${codecSite}/ops/v1/merchants`, { body: { name: 'x' } })).status, 404);
    assert.equal((await request(`${codecSite}/ops/v1/audit`)).status, 404);
    const m = `${opsUrl}/ops/v1/merchants/${merchantIdentifier}`;
    const changes: [string, string, object | undefined][] = [
      ['POST', `${opsUrl}/ops/v1/merchants`, { name: 'Codec Made' }],
      ['PATCH', m, { autoRefund: true }],
      ['POST', `${m}/api-keys`, { label: 'codec' }],
      ['POST', `${m}/secret-key/rotate`, {}],
      ['POST', `${m}/settlements/hold`, undefined],
      ['POST', `${m}/webhook-signing-secret/rotate`, {}],
      ['POST', `${opsUrl}/ops/v1/chargebacks`, { merchantIdentifier, orderId: 'none', amount: 1, action: 'raise' }],
      ['POST', `${opsUrl}/ops/v1/operator-tokens`, { name: 'codec-made', scopes: ['money'] }],
      ['POST', `${opsUrl}/ops/v1/operator-tokens/prometheus/revoke`, undefined],
    ];
    for (const [method, url, body] of changes) {
      const res = await request(url, { method, headers: bearer(secrets.CODEC_TOKEN), ...(body ? { body } : {}) });
      assert.equal(res.status, 403, `${method} ${url}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    // Nothing changed: the merchant's keys and the tokens are as they were.
    const keys = await request(`${m}/api-keys`, { headers: bearer(secrets.OPS_TOKEN) });
    assert.equal(keys.json.data.apiKeys.length, 1, keys.text);
    const tokens = await request(`${opsUrl}/ops/v1/operator-tokens`, { headers: bearer(secrets.OPS_TOKEN) });
    const names = (tokens.json.data.tokens as { name: string; revokedAt: string | null }[]).map((t) => [t.name, t.revokedAt]);
    assert.deepEqual(names.sort(), [
      ['prometheus', null],
      ['temporal-ui-codec', null],
    ]);
  });
});
