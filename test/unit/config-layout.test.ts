import { strict as assert } from 'node:assert';
import type { z } from 'zod';
import { configKeys, configLayout, configPathOf, loadConfig } from '../../src/config';
import { dashboardSettings } from '../../src/config-schema-dashboard';
import { limitSettings } from '../../src/config-schema-limits';
import { paymentSettings } from '../../src/config-schema-payments';
import { runtimeSettings } from '../../src/config-schema-runtime';
import { secretSettings } from '../../src/config-schema-secrets';
import { settlementSettings } from '../../src/config-schema-settlements';
import { webhookSettings } from '../../src/config-schema-webhooks';

const generated = { MASTER_KEY: 'a'.repeat(64), OPS_TOKEN: 'o'.repeat(32) };

describe("the typed configuration's sections", () => {
  it('place every variable of the schema exactly once, and nothing else', () => {
    const placed = Object.values(configLayout).flatMap((fields) => Object.values(fields) as string[]);
    assert.equal(new Set(placed).size, placed.length, 'no variable in two places');
    assert.deepEqual([...placed, 'GATEWAY_ENV'].sort(), [...configKeys].sort());
  });

  it('are each declared in the schema file named for them, with no variable of another section', () => {
    const files: [z.ZodObject, (keyof typeof configLayout | 'env')[]][] = [
      [runtimeSettings, ['env', 'http', 'observability', 'store', 'temporal', 'devStack']],
      [secretSettings, ['secrets', 'payloadCodec']],
      [paymentSettings, ['sandbox', 'bank', 'payments', 'qr', 'upi', 'mandates']],
      [limitSettings, ['limits']],
      [dashboardSettings, ['dashboard']],
      [webhookSettings, ['webhooks']],
      [settlementSettings, ['settlements']],
    ];
    for (const [schema, sections] of files) {
      const expected = sections.flatMap((s) => (s === 'env' ? ['GATEWAY_ENV'] : (Object.values(configLayout[s]) as string[])));
      assert.deepEqual(Object.keys(schema.shape).sort(), expected.sort(), sections.join(', '));
    }
  });

  it("hold each variable's parsed value where the layout says", () => {
    const c = loadConfig(
      { GATEWAY_ENV: 'test', API_PORT: '4321', RATE_LIMIT_PER_SECOND: '7', WEBHOOK_BATCH_WINDOW: '2s', TIME_SKIPPING: 'yes' },
      generated,
    );
    assert.equal(c.env, 'test');
    assert.equal(c.http.port, 4321);
    assert.equal(c.http.publicBaseUrl, 'http://localhost:4321');
    assert.equal(c.limits.requestsPerSecond, 7);
    assert.equal(c.webhooks.batchWindowMs, 2000);
    assert.equal(c.temporal.timeSkipping, true);
    assert.equal(c.store.database, 'gateway_time_skipping');
    assert.equal(c.secrets.masterKey, generated.MASTER_KEY);
    assert.equal(configPathOf.API_PORT, 'http.port');
    assert.equal(configPathOf.GATEWAY_ENV, 'env');
  });

  it('hold the settings derived from the variables, computed once', () => {
    const local = loadConfig({ API_PORT: '4321' }, generated);
    assert.equal(local.http.publicOrigin, 'http://localhost:4321');
    assert.equal(local.http.publicIsHttps, false);
    assert.equal(local.dashboard.temporalUiUrl, `http://localhost:${local.devStack.temporalUiPort}`, "the dev stack's UI");
    const behindProxy = loadConfig(
      { PUBLIC_BASE_URL: 'https://pay.example.in/gateway/', TEMPORAL_ADDRESS: 'temporal:7233' },
      generated,
    );
    assert.equal(behindProxy.http.publicOrigin, 'https://pay.example.in');
    assert.equal(behindProxy.http.publicIsHttps, true);
    assert.equal(behindProxy.dashboard.temporalUiUrl, null, 'a Temporal of its own and no TEMPORAL_UI_URL: no link');
    const withUi = loadConfig({ TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_UI_URL: 'https://temporal.example.in/' }, generated);
    assert.equal(withUi.dashboard.temporalUiUrl, 'https://temporal.example.in');
    assert.ok(Object.isFrozen(withUi.http) && Object.isFrozen(withUi.dashboard));
  });

  it('are frozen, as the whole is', () => {
    const c = loadConfig({}, generated);
    assert.ok(Object.isFrozen(c));
    for (const section of Object.keys(configLayout)) assert.ok(Object.isFrozen(c[section as keyof typeof configLayout]), section);
  });
});
