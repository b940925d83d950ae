import type { ParsedConfig } from './config-schema';

/**
 * Where each environment variable lands in the typed configuration: `config.<section>.<field>`
 * (GATEWAY_ENV alone is `config.env`). The variables keep their names (operators and compose set
 * them); the code reads the sections. Every variable of the schema appears here exactly once
 * (test/unit/config-layout.test.ts).
 */
export const configLayout = {
  http: {
    host: 'API_HOST',
    port: 'API_PORT',
    opsHost: 'OPS_HOST',
    opsPort: 'OPS_PORT',
    publicBaseUrl: 'PUBLIC_BASE_URL',
    trustProxy: 'TRUST_PROXY',
    requestTimeoutSeconds: 'REQUEST_TIMEOUT_SECONDS',
    maxBodyBytes: 'MAX_BODY_BYTES',
    paymentLinkMaxBodyBytes: 'PAYMENT_LINK_MAX_BODY_BYTES',
    reconciliationMaxBytes: 'RECONCILIATION_MAX_BYTES',
  },
  observability: {
    logLevel: 'LOG_LEVEL',
    tracesEndpoint: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    workerMetricsAddress: 'WORKER_METRICS_ADDRESS',
  },
  store: {
    mongodbUri: 'MONGODB_URI',
    database: 'MONGODB_DB',
    merchantCacheSeconds: 'MERCHANT_CACHE_SECONDS',
  },
  temporal: {
    address: 'TEMPORAL_ADDRESS',
    namespace: 'TEMPORAL_NAMESPACE',
    taskQueue: 'TEMPORAL_TASK_QUEUE',
    uiUrl: 'TEMPORAL_UI_URL',
    tlsCaFile: 'TEMPORAL_TLS_CA_FILE',
    tlsCertFile: 'TEMPORAL_TLS_CERT_FILE',
    tlsKeyFile: 'TEMPORAL_TLS_KEY_FILE',
    tlsServerName: 'TEMPORAL_TLS_SERVER_NAME',
    workerDeploymentName: 'WORKER_DEPLOYMENT_NAME',
    workerBuildId: 'WORKER_BUILD_ID',
    timeSkipping: 'TIME_SKIPPING',
    timeSkipTimeoutSeconds: 'TIME_SKIP_TIMEOUT_SECONDS',
  },
  payloadCodec: {
    previousMasterKeys: 'PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS',
    plaintextUntil: 'PAYLOAD_CODEC_PLAINTEXT_UNTIL',
    corsOrigins: 'CODEC_CORS_ORIGINS',
  },
  secrets: {
    masterKey: 'MASTER_KEY',
    opsToken: 'OPS_TOKEN',
    secretKeyRotationOverlapMs: 'SECRET_KEY_ROTATION_OVERLAP',
  },
  devStack: {
    mongodbPort: 'DEV_MONGODB_PORT',
    temporalPort: 'DEV_TEMPORAL_PORT',
    temporalUiPort: 'DEV_TEMPORAL_UI_PORT',
    temporalUiCodecPort: 'DEV_TEMPORAL_UI_CODEC_PORT',
    bankSimulatorPort: 'DEV_BANK_SIMULATOR_PORT',
    dataDir: 'DATA_DIR',
  },
  sandbox: {
    enabled: 'SANDBOX_ENABLED',
    refundSeconds: 'SANDBOX_REFUND_SECONDS',
    mandatePayerSeconds: 'SANDBOX_MANDATE_PAYER_SECONDS',
  },
  bank: {
    connector: 'BANK_CONNECTOR',
    baseUrl: 'BANK_BASE_URL',
    secret: 'BANK_SECRET',
    callTimeoutSeconds: 'BANK_CALL_TIMEOUT_SECONDS',
  },
  payments: {
    bankTimeoutSeconds: 'BANK_TIMEOUT_SECONDS',
    checkoutExpirySeconds: 'CHECKOUT_EXPIRY_SECONDS',
    pendingSweepIntervalSeconds: 'PENDING_SWEEP_INTERVAL_SECONDS',
    pendingSweepAgeSeconds: 'PENDING_SWEEP_AGE_SECONDS',
  },
  qr: {
    expirySeconds: 'QR_EXPIRY_SECONDS',
    pixelBudget: 'QR_PIXEL_BUDGET',
    imageUnlabelledUntil: 'QR_IMAGE_UNLABELLED_UNTIL',
  },
  upi: {
    payeeVpa: 'UPI_PAYEE_VPA',
    merchantCategoryCode: 'UPI_MERCHANT_CATEGORY_CODE',
  },
  mandates: {
    debitRetryMinutes: 'MANDATE_DEBIT_RETRY_MINUTES',
    updatesPerRun: 'MANDATE_UPDATES_PER_RUN',
  },
  limits: {
    requestsPerSecond: 'RATE_LIMIT_PER_SECOND',
    settlementReportCallsPerHour: 'SETTLEMENT_REPORT_CALLS_PER_HOUR',
    authFailuresPerAddressPerMinute: 'AUTH_FAILURES_PER_ADDRESS_PER_MINUTE',
    authFailuresPerMerchantPerMinute: 'AUTH_FAILURES_PER_MERCHANT_PER_MINUTE',
    pageRequestsPerTokenPerMinute: 'PAGE_REQUESTS_PER_TOKEN_PER_MINUTE',
    pageRequestsPerAddressPerMinute: 'PAGE_REQUESTS_PER_ADDRESS_PER_MINUTE',
  },
  dashboard: {
    sessionHours: 'DASHBOARD_SESSION_HOURS',
    invitationHours: 'DASHBOARD_INVITATION_HOURS',
    passwordCost: 'DASHBOARD_PASSWORD_COST',
    signInFailuresPerAccount: 'DASHBOARD_SIGN_IN_FAILURES_PER_ACCOUNT',
    signInFailuresPerAddress: 'DASHBOARD_SIGN_IN_FAILURES_PER_ADDRESS',
  },
  webhooks: {
    retryScheduleMs: 'WEBHOOK_RETRY_SCHEDULE',
    quickRetriesWithinMs: 'WEBHOOK_QUICK_RETRIES_WITHIN',
    batchWindowMs: 'WEBHOOK_BATCH_WINDOW',
    attemptTimeoutSeconds: 'WEBHOOK_ATTEMPT_TIMEOUT_SECONDS',
    secretRotationOverlapMs: 'WEBHOOK_SECRET_ROTATION_OVERLAP',
    endpointDisableAfterMs: 'WEBHOOK_ENDPOINT_DISABLE_AFTER',
    allowLoopback: 'WEBHOOK_ALLOW_LOOPBACK',
    allowedPrivateRanges: 'WEBHOOK_ALLOWED_PRIVATE_RANGES',
  },
  settlements: {
    days: 'SETTLEMENT_DAYS',
    holidays: 'SETTLEMENT_HOLIDAYS',
    feePlan: 'SETTLEMENT_FEE_PLAN',
    hourIst: 'SETTLEMENT_HOUR_IST',
    fileHourIst: 'SETTLEMENT_FILE_HOUR_IST',
    accountCoolingHours: 'SETTLEMENT_ACCOUNT_COOLING_HOURS',
    attentionOpenMinutes: 'SETTLEMENT_ATTENTION_OPEN_MINUTES',
    attentionPayoutMinutes: 'SETTLEMENT_ATTENTION_PAYOUT_MINUTES',
    attentionHeldMinutes: 'SETTLEMENT_ATTENTION_HELD_MINUTES',
  },
} as const satisfies Record<string, Record<string, Exclude<keyof ParsedConfig, 'GATEWAY_ENV'>>>;

export type ConfigLayout = typeof configLayout;
export type ConfigSectionName = keyof ConfigLayout;

/** The typed configuration's sections from the variables' values (`Flat` keyed by variable name). */
export type Sectioned<Flat extends { [K in keyof ParsedConfig]?: unknown }> = {
  readonly env: Flat['GATEWAY_ENV'];
} & {
  readonly [S in ConfigSectionName]: { readonly [F in keyof ConfigLayout[S]]: Flat[ConfigLayout[S][F] & keyof Flat] };
};

/**
 * Builds the sections (each frozen) from the variables' values, with `derived`, values computed
 * once from them, in their sections too.
 */
export function sectioned<Flat extends { [K in keyof ParsedConfig]?: unknown }>(
  flat: Flat,
  derived: { [S in ConfigSectionName]?: Record<string, unknown> } = {},
): Sectioned<Flat> {
  const sections = Object.entries(configLayout).map(([section, fields]) => [
    section,
    Object.freeze({
      ...Object.fromEntries(Object.entries(fields).map(([field, variable]) => [field, flat[variable]])),
      ...derived[section as ConfigSectionName],
    }),
  ]);
  return Object.freeze({ env: flat.GATEWAY_ENV, ...Object.fromEntries(sections) }) as Sectioned<Flat>;
}

/** `API_PORT` -> `http.port`: where the code reads a variable (the mapping the docs print). */
export const configPathOf: Record<keyof ParsedConfig, string> = Object.assign(
  { GATEWAY_ENV: 'env' },
  ...Object.entries(configLayout).flatMap(([section, fields]) =>
    Object.entries(fields).map(([field, variable]) => ({ [variable]: `${section}.${field}` })),
  ),
) as Record<keyof ParsedConfig, string>;
