/**
 * Probes of the running production stack's operator credentials (`npm run test:production-stack`):
 * the operator API is not on the public port, and each narrow token the stack's parts hold (Caddy's
 * codec site, a Prometheus scraper) does its job and nothing else.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { StackSecrets } from '../../src/devstack/production/secrets';
import type { StackState } from '../../src/devstack/production/stack';
import { request } from '../support/http';

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

  it('the codec token decodes through Caddy’s codec site and cannot change anything', async () => {
    const decoded = await request(`${codecSite}/ops/v1/codec/decode`, { body: { payloads: [] } });
    assert.equal(decoded.status, 200, `the codec site adds the codec token: ${decoded.text}`);
    // The codec site forwards the codec only.
    assert.equal((await request(`${codecSite}/ops/v1/merchants`, { body: { name: 'x' } })).status, 404);
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
