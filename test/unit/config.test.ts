import { strict as assert } from 'node:assert';
import { ConfigError, configKeys, configSchema, loadConfig } from '../../src/config';

const MASTER_KEY = 'a'.repeat(64);
const OPS_TOKEN = 'o'.repeat(32);

describe('configuration', () => {
  it('applies defaults and freezes the result', () => {
    const c = loadConfig({}, { MASTER_KEY, OPS_TOKEN });
    assert.equal(c.API_PORT, 3000);
    assert.equal(c.DEV_TEMPORAL_UI_PORT, 8233);
    assert.equal(c.BANK_TIMEOUT_SECONDS, 900);
    assert.equal(c.SANDBOX_ENABLED, true);
    assert.equal(c.PUBLIC_BASE_URL, 'http://localhost:3000');
    assert.ok(Object.isFrozen(c));
  });

  it('coerces numbers and booleans from strings', () => {
    const c = loadConfig({ API_PORT: '8080', SANDBOX_ENABLED: 'false', BANK_TIMEOUT_SECONDS: '5' }, { MASTER_KEY, OPS_TOKEN });
    assert.equal(c.API_PORT, 8080);
    assert.equal(c.SANDBOX_ENABLED, false);
    assert.equal(c.BANK_TIMEOUT_SECONDS, 5);
  });

  it('fails fast naming every bad variable', () => {
    assert.throws(
      () => loadConfig({ API_PORT: 'eighty', MONGODB_URI: 'postgres://x', SANDBOX_ENABLED: 'maybe' }, { MASTER_KEY, OPS_TOKEN }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /API_PORT/.test(e.message) &&
        /MONGODB_URI/.test(e.message) &&
        /SANDBOX_ENABLED/.test(e.message),
    );
  });

  it('production requires its own MASTER_KEY and OPS_TOKEN (no generated ones)', () => {
    assert.throws(
      () => loadConfig({ GATEWAY_ENV: 'production' }, { MASTER_KEY, OPS_TOKEN }),
      (e: unknown) => e instanceof ConfigError && /MASTER_KEY/.test(e.message) && /OPS_TOKEN/.test(e.message),
    );
    assert.equal(loadConfig({ GATEWAY_ENV: 'production', MASTER_KEY, OPS_TOKEN }).GATEWAY_ENV, 'production');
    assert.throws(() => loadConfig({ GATEWAY_ENV: 'production', MASTER_KEY: 'short', OPS_TOKEN }), /MASTER_KEY/);
  });

  it('time skipping: off by default, its own store database when on, refused in production', () => {
    assert.equal(loadConfig({}, { MASTER_KEY, OPS_TOKEN }).TIME_SKIPPING, false);
    const c = loadConfig({ TIME_SKIPPING: 'true', MONGODB_DB: 'shop' }, { MASTER_KEY, OPS_TOKEN });
    assert.equal(c.TIME_SKIPPING, true);
    assert.equal(c.MONGODB_DB, 'shop_time_skipping');
    assert.equal(loadConfig({ MONGODB_DB: 'shop' }, { MASTER_KEY, OPS_TOKEN }).MONGODB_DB, 'shop');
    assert.throws(() => loadConfig({ GATEWAY_ENV: 'production', TIME_SKIPPING: 'true', MASTER_KEY, OPS_TOKEN }), /TIME_SKIPPING/);
  });

  it('describes every variable', () => {
    const undescribed = configKeys.filter((k) => !configSchema.shape[k].description);
    assert.deepEqual(undescribed, []);
  });
});
