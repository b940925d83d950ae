import { strict as assert } from 'node:assert';
import { ConfigError, configKeys, configSchema, loadConfig } from '../../src/config';
import { DEFAULT_FEE_PLAN } from '../../src/domain/settlement-fees';

const MASTER_KEY = 'a'.repeat(64);
const OPS_TOKEN = 'o'.repeat(32);
const HTTP_BANK = {
  BANK_CONNECTOR: 'http',
  BANK_BASE_URL: 'https://acquirer.example',
  BANK_SECRET: '7d2f9a41c08e5b36f1a4c9e27b05d83f',
};
const TEMPORAL_MTLS = {
  TEMPORAL_TLS_CA_FILE: '/certs/ca.pem',
  TEMPORAL_TLS_CERT_FILE: '/certs/gateway.pem',
  TEMPORAL_TLS_KEY_FILE: '/certs/gateway.key',
};
/** What production needs beyond the bank: generated secrets and an https address. */
const STRONG = {
  MASTER_KEY: '3f9c1a7be24d60c85e17f3a9d02b6c4e81f75a3d9c60b2e47a18d5f3c9e06b71',
  OPS_TOKEN: 'Zq7vK2mX9pL4tR8wN1cY6bH3jF5dG0sA',
  PUBLIC_BASE_URL: 'https://pay.example.in',
  UPI_PAYEE_VPA: 'gateway@examplebank',
  OPS_PORT: '3001',
  ...TEMPORAL_MTLS,
};

describe('configuration', () => {
  it('applies defaults and freezes the result', () => {
    const c = loadConfig({}, { MASTER_KEY, OPS_TOKEN });
    assert.equal(c.http.port, 3000);
    assert.equal(c.devStack.temporalUiPort, 8233);
    assert.equal(c.payments.bankTimeoutSeconds, 900);
    assert.equal(c.upi.payeeVpa, 'merchantgateway@sandbox', 'development pays the sandbox VPA');
    assert.equal(c.sandbox.enabled, true);
    assert.equal(c.http.publicBaseUrl, 'http://localhost:3000');
    assert.ok(Object.isFrozen(c));
  });

  it("a mandate's run continues as new at most halfway to Temporal's default update limit, and never past 1,800", () => {
    const temporalDefaultMaxTotalUpdates = 2_000;
    const c = loadConfig({}, { MASTER_KEY, OPS_TOKEN });
    assert.ok(c.mandates.updatesPerRun <= temporalDefaultMaxTotalUpdates / 2, String(c.mandates.updatesPerRun));
    assert.equal(loadConfig({ MANDATE_UPDATES_PER_RUN: '100' }, { MASTER_KEY, OPS_TOKEN }).mandates.updatesPerRun, 100);
    assert.throws(() => loadConfig({ MANDATE_UPDATES_PER_RUN: '1801' }, { MASTER_KEY, OPS_TOKEN }), ConfigError);
  });

  it('coerces numbers and booleans from strings', () => {
    const c = loadConfig({ API_PORT: '8080', SANDBOX_ENABLED: 'false', BANK_TIMEOUT_SECONDS: '5' }, { MASTER_KEY, OPS_TOKEN });
    assert.equal(c.http.port, 8080);
    assert.equal(c.sandbox.enabled, false);
    assert.equal(c.payments.bankTimeoutSeconds, 5);
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

  it('webhook quick retries: 5s by default, up to 30s, refused past it or with a unit it does not take', () => {
    assert.equal(loadConfig({}, { MASTER_KEY, OPS_TOKEN }).webhooks.quickRetriesWithinMs, 5000);
    for (const [ok, ms] of [
      ['0', 0],
      ['500ms', 500],
      ['30s', 30_000],
      ['30000ms', 30_000],
    ] as const)
      assert.equal(loadConfig({ WEBHOOK_QUICK_RETRIES_WITHIN: ok }, { MASTER_KEY, OPS_TOKEN }).webhooks.quickRetriesWithinMs, ms);
    for (const bad of ['31s', '30001ms', '1m', 'soon'])
      assert.throws(
        () => loadConfig({ WEBHOOK_QUICK_RETRIES_WITHIN: bad }, { MASTER_KEY, OPS_TOKEN }),
        /WEBHOOK_QUICK_RETRIES_WITHIN/,
      );
  });

  it('parses waits, lists, dates, the fee plan and addresses once, into the values their users take', () => {
    const defaults = loadConfig({}, { MASTER_KEY, OPS_TOKEN });
    assert.deepEqual(
      defaults.webhooks.retryScheduleMs,
      [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    );
    assert.equal(defaults.webhooks.batchWindowMs, 5_000);
    assert.equal(defaults.secrets.secretKeyRotationOverlapMs, 86_400_000);
    assert.equal(defaults.webhooks.secretRotationOverlapMs, 86_400_000);
    assert.equal(defaults.webhooks.endpointDisableAfterMs, 432_000_000);
    assert.deepEqual(defaults.webhooks.allowedPrivateRanges, []);
    assert.equal(defaults.webhooks.allowLoopback, true, 'development delivers to local receivers');
    assert.deepEqual([...defaults.settlements.holidays], []);
    assert.equal(defaults.settlements.feePlan, DEFAULT_FEE_PLAN);
    const set = loadConfig(
      {
        WEBHOOK_RETRY_SCHEDULE: ' 0, 500ms ,2m,1h',
        WEBHOOK_ALLOWED_PRIVATE_RANGES: ' 10.20.0.0/16, ,192.168.1.0/24',
        SETTLEMENT_HOLIDAYS: '2026-12-25, 2027-01-26',
        SETTLEMENT_FEE_PLAN: JSON.stringify(DEFAULT_FEE_PLAN),
        TEMPORAL_UI_URL: 'http://temporal-ui.test:8233//',
      },
      { MASTER_KEY, OPS_TOKEN },
    );
    assert.deepEqual(set.webhooks.retryScheduleMs, [0, 500, 120_000, 3_600_000]);
    assert.deepEqual(set.webhooks.allowedPrivateRanges, ['10.20.0.0/16', '192.168.1.0/24']);
    assert.deepEqual([...set.settlements.holidays], ['2026-12-25', '2027-01-26']);
    assert.deepEqual(set.settlements.feePlan, DEFAULT_FEE_PLAN);
    assert.equal(set.temporal.uiUrl, 'http://temporal-ui.test:8233');
    const production = loadConfig({ GATEWAY_ENV: 'production', ...STRONG, ...HTTP_BANK });
    assert.equal(production.webhooks.allowLoopback, false, 'production never delivers to loopback unless told');
    assert.equal(
      loadConfig({ GATEWAY_ENV: 'production', ...STRONG, ...HTTP_BANK, WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhooks.allowLoopback,
      true,
    );
  });

  it('production requires its own MASTER_KEY and OPS_TOKEN (no generated ones)', () => {
    assert.throws(
      () => loadConfig({ GATEWAY_ENV: 'production' }, { MASTER_KEY, OPS_TOKEN }),
      (e: unknown) => e instanceof ConfigError && /MASTER_KEY/.test(e.message) && /OPS_TOKEN/.test(e.message),
    );
    assert.equal(loadConfig({ GATEWAY_ENV: 'production', ...STRONG, ...HTTP_BANK }).env, 'production');
    assert.throws(() => loadConfig({ GATEWAY_ENV: 'production', ...STRONG, MASTER_KEY: 'short', ...HTTP_BANK }), /MASTER_KEY/);
  });

  it('the bank: the sandbox by default, http with its address and secret; production refuses the sandbox', () => {
    const dev = loadConfig({}, { MASTER_KEY, OPS_TOKEN });
    assert.equal(dev.bank.connector, 'sandbox');
    assert.equal(dev.bank.callTimeoutSeconds, 10);
    const http = loadConfig(
      { BANK_CONNECTOR: 'http', BANK_BASE_URL: 'http://127.0.0.1:4100', BANK_SECRET: 's'.repeat(32) },
      { MASTER_KEY, OPS_TOKEN },
    );
    assert.equal(http.bank.connector, 'http');
    assert.equal(http.bank.baseUrl, 'http://127.0.0.1:4100');
    assert.throws(
      () => loadConfig({ BANK_CONNECTOR: 'http' }, { MASTER_KEY, OPS_TOKEN }),
      (e: unknown) => e instanceof ConfigError && /BANK_BASE_URL/.test(e.message) && /BANK_SECRET/.test(e.message),
    );
    assert.throws(
      () =>
        loadConfig(
          { BANK_CONNECTOR: 'http', BANK_BASE_URL: 'ftp://bank', BANK_SECRET: 's'.repeat(32) },
          { MASTER_KEY, OPS_TOKEN },
        ),
      /BANK_BASE_URL/,
    );
    assert.throws(() => loadConfig({ ...HTTP_BANK, BANK_SECRET: 'short' }, { MASTER_KEY, OPS_TOKEN }), /BANK_SECRET/);
    assert.throws(() => loadConfig({ BANK_CONNECTOR: 'carrier-pigeon' }, { MASTER_KEY, OPS_TOKEN }), /BANK_CONNECTOR/);

    const production = { GATEWAY_ENV: 'production', ...STRONG };
    assert.throws(() => loadConfig(production), /BANK_CONNECTOR: the sandbox bank is not allowed in production/);
    assert.throws(
      () => loadConfig({ ...production, ...HTTP_BANK, BANK_BASE_URL: 'http://bank.example' }),
      /must be https in production/,
    );
    assert.throws(
      () => loadConfig({ ...production, ...HTTP_BANK, SANDBOX_ENABLED: 'true' }),
      /SANDBOX_ENABLED: not allowed in production/,
    );
    assert.equal(loadConfig({ ...production, ...HTTP_BANK }).sandbox.enabled, false, 'no sandbox payer in production');
  });

  it('time skipping: off by default, its own store database when on, refused in production', () => {
    assert.equal(loadConfig({}, { MASTER_KEY, OPS_TOKEN }).temporal.timeSkipping, false);
    const c = loadConfig({ TIME_SKIPPING: 'true', MONGODB_DB: 'shop' }, { MASTER_KEY, OPS_TOKEN });
    assert.equal(c.temporal.timeSkipping, true);
    assert.equal(c.store.database, 'shop_time_skipping');
    assert.equal(loadConfig({ MONGODB_DB: 'shop' }, { MASTER_KEY, OPS_TOKEN }).store.database, 'shop');
    assert.throws(
      () => loadConfig({ GATEWAY_ENV: 'production', TIME_SKIPPING: 'true', ...STRONG, ...HTTP_BANK }),
      /TIME_SKIPPING/,
    );
  });

  it('production refuses to start, naming the setting: weak secrets, no https PUBLIC_BASE_URL, the sandbox, no http bank', () => {
    const production = { GATEWAY_ENV: 'production', ...STRONG, ...HTTP_BANK };
    assert.equal(loadConfig(production).http.publicBaseUrl, 'https://pay.example.in');
    const refusals: [Record<string, string | undefined>, RegExp][] = [
      [{ MASTER_KEY }, /MASTER_KEY: too weak for production/],
      [{ MASTER_KEY: '0123456789abcdef'.repeat(4) }, /MASTER_KEY: too weak for production: a short pattern repeated/],
      [{ MASTER_KEY: 'ab'.repeat(32) }, /MASTER_KEY: too weak/],
      [{ OPS_TOKEN }, /OPS_TOKEN: too weak for production/],
      [{ OPS_TOKEN: 'x'.repeat(24) }, /OPS_TOKEN: too weak for production: at least 32 characters/],
      [{ OPS_TOKEN: 'Zq7vK2mX9pL4tR8wN1cY6bH3' }, /OPS_TOKEN: too weak for production: at least 32 characters/],
      [{ OPS_TOKEN: 'abcabcabcabcabcabcabcabcabcabcabcabc' }, /OPS_TOKEN: too weak/],
      [{ PUBLIC_BASE_URL: undefined }, /PUBLIC_BASE_URL: required in production/],
      [{ PUBLIC_BASE_URL: 'http://pay.example.in' }, /PUBLIC_BASE_URL: must be https in production/],
      [{ SANDBOX_ENABLED: 'true' }, /SANDBOX_ENABLED: not allowed in production/],
      [{ BANK_CONNECTOR: 'sandbox' }, /BANK_CONNECTOR: the sandbox bank is not allowed in production/],
      [{ UPI_PAYEE_VPA: undefined }, /UPI_PAYEE_VPA: required in production/],
      [{ BANK_SECRET: 'a'.repeat(40) }, /BANK_SECRET: too weak for production: too few distinct characters/],
      [{ BANK_SECRET: 'abcdefgh'.repeat(5) }, /BANK_SECRET: too weak for production: a short pattern repeated/],
      [{ UPI_PAYEE_VPA: 'merchantgateway@sandbox' }, /UPI_PAYEE_VPA: a @sandbox VPA receives no money/],
      [{ UPI_PAYEE_VPA: 'gateway@SANDBOX' }, /UPI_PAYEE_VPA: a @sandbox VPA receives no money/],
      [{ OPS_PORT: '3000' }, /OPS_PORT: must differ from API_PORT/],
    ];
    for (const [change, message] of refusals) {
      assert.throws(() => loadConfig({ ...production, ...change }), message, JSON.stringify(change));
    }
    // Everything at once: every setting named in one message.
    assert.throws(
      () => loadConfig({ GATEWAY_ENV: 'production', MASTER_KEY, OPS_TOKEN, PUBLIC_BASE_URL: 'http://x.example' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        ['MASTER_KEY', 'OPS_TOKEN', 'PUBLIC_BASE_URL', 'BANK_CONNECTOR'].every((k) => e.message.includes(`${k}:`)),
    );
  });

  it('mTLS to Temporal: CA, certificate and key all or none, required in staging and production', () => {
    const c = loadConfig({ ...TEMPORAL_MTLS, TEMPORAL_TLS_SERVER_NAME: 'temporal' }, { MASTER_KEY, OPS_TOKEN });
    assert.equal(c.temporal.tlsCaFile, '/certs/ca.pem');
    assert.equal(c.temporal.tlsServerName, 'temporal');
    assert.equal(loadConfig({}, { MASTER_KEY, OPS_TOKEN }).temporal.tlsCaFile, undefined, 'plaintext in development');
    assert.throws(
      () => loadConfig({ ...TEMPORAL_MTLS, TEMPORAL_TLS_KEY_FILE: undefined }, { MASTER_KEY, OPS_TOKEN }),
      /TEMPORAL_TLS_KEY_FILE: required with TEMPORAL_TLS_CA_FILE and TEMPORAL_TLS_CERT_FILE/,
    );
    assert.throws(
      () => loadConfig({ TEMPORAL_TLS_CERT_FILE: '/certs/gateway.pem' }, { MASTER_KEY, OPS_TOKEN }),
      (e: unknown) => e instanceof ConfigError && e.problems.length === 2 && /TEMPORAL_TLS_CA_FILE: required/.test(e.message),
    );
    assert.throws(
      () => loadConfig({ TEMPORAL_TLS_SERVER_NAME: 'temporal' }, { MASTER_KEY, OPS_TOKEN }),
      /TEMPORAL_TLS_SERVER_NAME: only with/,
    );
    for (const env of ['staging', 'production']) {
      const plaintext = {
        GATEWAY_ENV: env,
        ...STRONG,
        ...HTTP_BANK,
        ...Object.fromEntries(Object.keys(TEMPORAL_MTLS).map((k) => [k, ''])),
      };
      assert.throws(() => loadConfig(plaintext), new RegExp(`TEMPORAL_TLS_CA_FILE: required in ${env}`), env);
    }
  });

  it("staging: the sandbox (and its bank) with production's other rules", () => {
    const staging = loadConfig({ GATEWAY_ENV: 'staging', ...STRONG });
    assert.equal(staging.sandbox.enabled, true);
    assert.equal(staging.bank.connector, 'sandbox');
    assert.throws(() => loadConfig({ GATEWAY_ENV: 'staging', ...STRONG, OPS_TOKEN }), /OPS_TOKEN: too weak for staging/);
    assert.throws(
      () => loadConfig({ GATEWAY_ENV: 'staging', ...STRONG, PUBLIC_BASE_URL: undefined }),
      /PUBLIC_BASE_URL: required/,
    );
    assert.throws(
      () =>
        loadConfig(
          { GATEWAY_ENV: 'staging', PUBLIC_BASE_URL: STRONG.PUBLIC_BASE_URL },
          { MASTER_KEY: STRONG.MASTER_KEY, OPS_TOKEN: STRONG.OPS_TOKEN },
        ),
      /MASTER_KEY: required/,
      'no generated secrets in staging',
    );
    assert.throws(() => loadConfig({ GATEWAY_ENV: 'staging', ...STRONG, TIME_SKIPPING: 'true' }), /TIME_SKIPPING/);
  });

  it('codec settings: earlier MASTER_KEYs and the CORS origins of Temporal UI, as lists; bad ones named', () => {
    const other = 'b'.repeat(64);
    const c = loadConfig(
      {
        PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS: ` ${other.toUpperCase()} , ${MASTER_KEY}`,
        CODEC_CORS_ORIGINS: 'http://127.0.0.1:8233, https://ui.example',
      },
      { MASTER_KEY, OPS_TOKEN },
    );
    assert.deepEqual(c.payloadCodec.previousMasterKeys, [other, MASTER_KEY]);
    assert.deepEqual(c.payloadCodec.corsOrigins, ['http://127.0.0.1:8233', 'https://ui.example']);
    const none = loadConfig({}, { MASTER_KEY, OPS_TOKEN });
    assert.deepEqual([none.payloadCodec.previousMasterKeys, none.payloadCodec.corsOrigins], [[], []]);
    assert.throws(
      () =>
        loadConfig(
          { PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS: `${other},short`, CODEC_CORS_ORIGINS: 'http://ui.example/path' },
          { MASTER_KEY, OPS_TOKEN },
        ),
      (e: unknown) =>
        e instanceof ConfigError && /PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS/.test(e.message) && /CODEC_CORS_ORIGINS/.test(e.message),
    );
  });

  it('describes every variable', () => {
    const undescribed = configKeys.filter((k) => !configSchema.shape[k].description);
    assert.deepEqual(undescribed, []);
  });
});
