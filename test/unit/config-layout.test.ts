import { strict as assert } from 'node:assert';
import { configKeys, configLayout, configPathOf, loadConfig } from '../../src/config';

const generated = { MASTER_KEY: 'a'.repeat(64), OPS_TOKEN: 'o'.repeat(32) };

describe("the typed configuration's sections", () => {
  it('place every variable of the schema exactly once, and nothing else', () => {
    const placed = Object.values(configLayout).flatMap((fields) => Object.values(fields) as string[]);
    assert.equal(new Set(placed).size, placed.length, 'no variable in two places');
    assert.deepEqual([...placed, 'GATEWAY_ENV'].sort(), [...configKeys].sort());
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

  it('are frozen, as the whole is', () => {
    const c = loadConfig({}, generated);
    assert.ok(Object.isFrozen(c));
    for (const section of Object.keys(configLayout)) assert.ok(Object.isFrozen(c[section as keyof typeof configLayout]), section);
  });
});
