import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { isIsoDate } from './domain/settlement-calendar';
import { feePlanSchema } from './domain/settlement-fees';

/**
 * Every environment variable the gateway reads, parsed once at start-up. Each key carries one
 * description (docs/operators/configuration.md's table mirrors them), and the deployment test checks that
 * docker-compose sets nothing that is not listed here.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const port = z.coerce.number().int().min(0).max(65535);
const hexKey = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)');

export const configSchema = z.object({
  GATEWAY_ENV: z
    .enum(['development', 'test', 'staging', 'production'])
    .default('development')
    .describe(
      'development, test, staging or production; staging and production require strong MASTER_KEY and OPS_TOKEN and an https PUBLIC_BASE_URL, and production never runs the sandbox',
    ),
  API_HOST: z.string().min(1).default('127.0.0.1').describe('address the HTTP API binds to'),
  API_PORT: port.default(3000).describe('port of the HTTP API'),
  PUBLIC_BASE_URL: z
    .url()
    .optional()
    .describe(
      'base URL merchants and payers use to reach the API; defaults to http://localhost:<API_PORT> (staging and production: required, https)',
    ),
  TRUST_PROXY: bool
    .default(false)
    .describe(
      'the API sits behind one TLS-terminating proxy: take the scheme, host and client address from its X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For (the last hop only)',
    ),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional()
    .describe('MongoDB to use; when unset, npm start and npm test run the local FerretDB store'),
  MONGODB_DB: z
    .string()
    .min(1)
    .default('gateway')
    .describe('database name (with TIME_SKIPPING, the gateway uses <name>_time_skipping instead)'),
  TEMPORAL_ADDRESS: z
    .string()
    .min(1)
    .optional()
    .describe('Temporal frontend host:port; when unset, npm start runs the local dev server'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default').describe('Temporal namespace'),
  TEMPORAL_UI_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http(s) address')
    .optional()
    .describe(
      "Temporal UI's address (http://localhost:8233); the dashboard links each order to its workflow there (unset: no link)",
    ),
  TEMPORAL_TLS_CA_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      "mTLS to Temporal: PEM file of the CA that signed the frontend's certificate (with TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE, all or none; production and staging require them)",
    ),
  TEMPORAL_TLS_CERT_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("mTLS to Temporal: PEM file of the gateway's client certificate (the frontend requires one)"),
  TEMPORAL_TLS_KEY_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("mTLS to Temporal: PEM file of that client certificate's private key"),
  TEMPORAL_TLS_SERVER_NAME: z
    .string()
    .min(1)
    .optional()
    .describe(
      "mTLS to Temporal: the name the frontend's certificate must carry, when it differs from TEMPORAL_ADDRESS's host (e.g. temporal)",
    ),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('payments').describe('task queue of the payment worker'),
  DEV_MONGODB_PORT: port.default(27017).describe('npm start: port of the local FerretDB store'),
  DEV_TEMPORAL_PORT: port.default(7233).describe('npm start: gRPC port of the local Temporal dev server'),
  DEV_TEMPORAL_UI_PORT: port.default(8233).describe('npm start: port of Temporal UI'),
  DEV_TEMPORAL_UI_CODEC_PORT: port
    .default(8234)
    .describe("npm start: loopback port of Temporal UI's codec site (adds the operator token, forwards to /ops/v1/codec)"),
  DEV_BANK_SIMULATOR_PORT: port
    .default(4100)
    .describe('npm start -- --bank=simulator: port of the local bank simulator (BANK_BASE_URL points there)'),
  DATA_DIR: z.string().min(1).default('.data').describe('npm start: where local data persists'),
  MASTER_KEY: hexKey
    .optional()
    .describe(
      'AES-256 key that encrypts secret and private keys at rest; generated into DATA_DIR in development (staging and production: random, not repeated characters)',
    ),
  PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS: z
    .string()
    .regex(/^\s*[0-9a-fA-F]{64}(\s*,\s*[0-9a-fA-F]{64})*\s*$/, 'a comma-separated list of 64-hexadecimal-character keys')
    .optional()
    .transform((v) => (v ? v.split(',').map((k) => k.trim().toLowerCase()) : []))
    .describe(
      'earlier MASTER_KEYs whose payload-codec keys still decode Temporal payloads (workflows started before a key rotation); new payloads are always sealed under MASTER_KEY',
    ),
  CODEC_CORS_ORIGINS: z
    .string()
    .regex(
      /^\s*https?:\/\/[^\s,/]+(\s*,\s*https?:\/\/[^\s,/]+)*\s*$/,
      'a comma-separated list of origins such as http://127.0.0.1:8233',
    )
    .optional()
    .transform((v) => (v ? v.split(',').map((o) => o.trim()) : []))
    .describe(
      "origins (Temporal UI's) whose browsers may call /ops/v1/codec cross-origin: the CORS preflight is answered for them only",
    ),
  OPS_TOKEN: z
    .string()
    .min(24, 'must be at least 24 characters')
    .optional()
    .describe(
      'bearer token of the operator API (/ops/v1); generated into DATA_DIR in development (staging and production: at least 32 random characters)',
    ),
  SANDBOX_ENABLED: bool
    .optional()
    .describe('serve /sandbox/v1 (the sandbox payer); default: on outside production, and production refuses it'),
  BANK_CONNECTOR: z
    .enum(['sandbox', 'http'])
    .default('sandbox')
    .describe(
      'the bank: sandbox (in process: development, tests, time travel; refused in production) or http (an acquirer speaking the /v1 bank protocol at BANK_BASE_URL)',
    ),
  BANK_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'BANK_CONNECTOR=http: base URL of the acquirer (https in production), e.g. the bank simulator http://127.0.0.1:4100',
    ),
  BANK_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe('BANK_CONNECTOR=http: the secret shared with the acquirer that signs both directions (X-Bank-Signature)'),
  BANK_CALL_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(60)
    .default(10)
    .describe('BANK_CONNECTOR=http: one call to the bank is abandoned (and retried by Temporal) after this long'),
  BANK_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(900)
    .describe('how long a payment waits for the bank before the service marks it Failure'),
  QR_EXPIRY_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(900)
    .describe('how long a dynamic QR waits for its payer before the order becomes Failure'),
  QR_PIXEL_BUDGET: z.coerce
    .number()
    .int()
    .min(1_000_000)
    .default(50_000_000)
    .describe(
      'most QR image pixels one request may ask for (width x height, summed over a payment link batch; at least one 1000x1000 image): more is refused with 400, code 2018',
    ),
  CHECKOUT_EXPIRY_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(1800)
    .describe(
      'how long a hosted checkout waits for its payer before the order becomes Failure (183 to the merchant, reason 1024 in the store)',
    ),
  UPI_PAYEE_VPA: z
    .string()
    .regex(/^[\w.-]+@[\w.-]+$/, 'must be a VPA such as gateway@bank')
    .optional()
    .describe(
      'the gateway VPA dynamic QR intents pay to (pa); default merchantgateway@sandbox in development and test, required (and not @sandbox) in staging and production',
    ),
  UPI_MERCHANT_CATEGORY_CODE: z
    .string()
    .regex(/^\d{4}$/, 'must be a 4-digit merchant category code')
    .default('5399')
    .describe('merchant category code of dynamic QR intents (mc)'),
  SANDBOX_REFUND_SECONDS: z.coerce
    .number()
    .min(0)
    .max(60)
    .default(3)
    .describe('how long the sandbox bank takes to settle a refund'),
  SANDBOX_MANDATE_PAYER_SECONDS: z.coerce
    .number()
    .min(0)
    .max(60)
    .default(1.5)
    .describe('how long the sandbox payer takes to approve or decline a new mandate'),
  MANDATE_DEBIT_RETRY_MINUTES: z.coerce
    .number()
    .positive()
    .max(1440)
    .default(60)
    .describe('wait between a failed mandate debit attempt and its retry (one attempt plus at most 3 retries)'),
  PENDING_SWEEP_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(300)
    .describe('how often the sweep:pending-payments schedule looks for orders left Pending without a workflow'),
  PENDING_SWEEP_AGE_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(60)
    .describe('how long an order must have been Pending before the sweep ensures its payment workflow'),
  SETTLEMENT_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30)
    .default(1)
    .describe('payments captured on an IST day settle this many working days later (T+N)'),
  SETTLEMENT_HOLIDAYS: z
    .string()
    .default('')
    .refine((v) => v.split(',').every((d) => d.trim() === '' || isIsoDate(d.trim())), 'must be comma-separated yyyy-MM-dd dates')
    .describe('dates (yyyy-MM-dd, comma-separated) that are not working days for settlements, besides Saturdays and Sundays'),
  SETTLEMENT_FEE_PLAN: z
    .string()
    .default('')
    .refine(
      (v) => v === '' || feePlanSchema.safeParse(safeJson(v)).success,
      'must be a fee plan as JSON (docs/operators/settlements.md)',
    )
    .describe('the fee plan of merchants without their own, as JSON (empty: the built-in default)'),
  SETTLEMENT_HOUR_IST: z.coerce
    .number()
    .int()
    .min(0)
    .max(23)
    .default(9)
    .describe("the IST hour the daily settlement schedule starts the day's settlements"),
  MERCHANT_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30)
    .describe('how long a process caches a merchant it looked up (0 turns the cache off)'),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(65536).describe('largest request body accepted (413 above)'),
  PAYMENT_LINK_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1_048_576)
    .describe('largest payment link batch accepted (a batch holds up to 500 links; 413 above)'),
  RATE_LIMIT_PER_SECOND: z.coerce
    .number()
    .int()
    .min(0)
    .default(50)
    .describe('requests per second per merchant and API family (429 past it); 0 turns limits off'),
  AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(30)
    .describe('failed authentications a minute from one client address; past it every request from it gets 429 (0: off)'),
  AUTH_FAILURES_PER_MERCHANT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .describe(
      "failed authentications a minute claiming one merchant; past it further failures get 429 (the merchant's own signed calls go on; 0: off)",
    ),
  PAGE_REQUESTS_PER_TOKEN_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(120)
    .describe('requests a minute to one hosted payment page (GET /pl/:token and its form); 429 past it (0: off)'),
  PAGE_REQUESTS_PER_ADDRESS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(600)
    .describe('requests a minute to hosted payment pages from one client address; 429 past it (0: off)'),
  DASHBOARD_SESSION_HOURS: z.coerce
    .number()
    .positive()
    .max(720)
    .default(12)
    .describe('how long a merchant dashboard sign-in lasts before the user signs in again'),
  DASHBOARD_INVITATION_HOURS: z.coerce
    .number()
    .positive()
    .max(720)
    .default(72)
    .describe('how long a dashboard invitation link can be used (once)'),
  DASHBOARD_PASSWORD_COST: z.coerce
    .number()
    .int()
    .min(10)
    .max(20)
    .default(17)
    .describe(
      "dashboard passwords: scrypt's N = 2^this (r 8, p 1); 17 is OWASP's guidance and the least staging and production accept; older hashes are rehashed at sign-in",
    ),
  DASHBOARD_SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(0)
    .default(5)
    .describe(
      'failed dashboard sign-ins per email address in 15 minutes; past it the account cannot sign in until then (0: off)',
    ),
  DASHBOARD_SIGN_IN_FAILURES_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(0)
    .default(50)
    .describe(
      'failed dashboard sign-ins from one client address in 15 minutes; past it that address cannot sign in until then (0: off)',
    ),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?(\s*,\s*\d+(ms|s|m|h)?)*\s*$/, 'a comma-separated list of waits such as 0,5s,5m,2h')
    .default('0,5s,5m,30m,2h,5h,10h,10h')
    .describe('waits before each webhook attempt (the first is usually 0); after the last attempt the delivery fails'),
  WEBHOOK_BATCH_WINDOW: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 500ms or 5s')
    .default('5s')
    .describe('how long late updates of one merchant are gathered before they are cut into non-real-time webhook calls'),
  SECRET_KEY_ROTATION_OVERLAP: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 24h')
    .default('24h')
    .describe("after a merchant's secret key is rotated, how long checksums made with the old one are still accepted"),
  WEBHOOK_SECRET_ROTATION_OVERLAP: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 24h')
    .default('24h')
    .describe('after a webhook signing secret is rotated, how long the old one still signs calls beside the new one'),
  WEBHOOK_ATTEMPT_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(15)
    .default(15)
    .describe('how long one webhook attempt waits for the merchant to answer before it counts as failed'),
  WEBHOOK_ENDPOINT_DISABLE_AFTER: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 120h')
    .default('120h')
    .describe(
      "a merchant's webhook endpoint is disabled when every delivery to it has failed for this long (and at once on 410 Gone)",
    ),
  WEBHOOK_ALLOW_LOOPBACK: bool
    .optional()
    .describe('deliver webhooks to loopback addresses (default: yes outside production, for local receivers)'),
  WEBHOOK_ALLOWED_PRIVATE_RANGES: z
    .string()
    .default('')
    .refine(
      (v) =>
        v
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean)
          .every((r) => ipaddr.isValidCIDR(r)),
      'must be comma-separated CIDR ranges such as 10.20.0.0/16',
    )
    .describe('comma-separated CIDR ranges of private addresses webhooks may reach (metadata addresses never)'),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(300)
    .default(30)
    .describe('a request (headers and body) not received within this many seconds gets 408'),
  RECONCILIATION_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe('largest reconciliation file accepted (413 above)'),
  TIME_SKIPPING: bool
    .default(false)
    .describe(
      'run against the Temporal time-skipping test server: time moves only through POST /sandbox/v1/time/skip (npm start -- --time-skipping); never in production',
    ),
  TIME_SKIP_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(600)
    .default(60)
    .describe('how long a time skip waits for the workflows it woke to finish before it answers 503'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info').describe('log level'),
});

export type ConfigInput = z.input<typeof configSchema>;
export type Config = Readonly<
  Omit<z.infer<typeof configSchema>, 'MASTER_KEY' | 'OPS_TOKEN' | 'PUBLIC_BASE_URL' | 'SANDBOX_ENABLED' | 'UPI_PAYEE_VPA'> & {
    SANDBOX_ENABLED: boolean;
    UPI_PAYEE_VPA: string;
    MASTER_KEY: string;
    OPS_TOKEN: string;
    PUBLIC_BASE_URL: string;
  }
>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Names of all variables the gateway reads. */
export const configKeys = Object.keys(configSchema.shape) as (keyof typeof configSchema.shape)[];

/**
 * Parses the environment. Development and test may leave MASTER_KEY and OPS_TOKEN unset only when
 * `generated` supplies them (the dev stack keeps them in DATA_DIR); production must set both.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  generated: { MASTER_KEY?: string; OPS_TOKEN?: string } = {},
): Config {
  const relevant = Object.fromEntries(configKeys.map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`));
  }
  const c = parsed.data;
  const problems: string[] = [];
  const strict = productionLike(c.GATEWAY_ENV);
  const MASTER_KEY = c.MASTER_KEY ?? (strict ? undefined : generated.MASTER_KEY);
  const OPS_TOKEN = c.OPS_TOKEN ?? (strict ? undefined : generated.OPS_TOKEN);
  if (!MASTER_KEY) problems.push('MASTER_KEY: required (64 hexadecimal characters)');
  if (!OPS_TOKEN) problems.push(`OPS_TOKEN: required (at least ${strict ? 32 : 24} characters)`);
  if (c.TIME_SKIPPING && strict) problems.push(`TIME_SKIPPING: not allowed in ${c.GATEWAY_ENV}`);
  if (strict) problems.push(...strictProblems(c));
  problems.push(...bankProblems(c));
  problems.push(...temporalTlsProblems(c));
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    ...c,
    // A time-skipping run's data belongs to that run's test server, so it never mixes with the real clock's.
    MONGODB_DB: c.TIME_SKIPPING ? `${c.MONGODB_DB}_time_skipping` : c.MONGODB_DB,
    SANDBOX_ENABLED: c.SANDBOX_ENABLED ?? c.GATEWAY_ENV !== 'production',
    MASTER_KEY: MASTER_KEY!.toLowerCase(),
    OPS_TOKEN: OPS_TOKEN!,
    UPI_PAYEE_VPA: c.UPI_PAYEE_VPA ?? SANDBOX_PAYEE_VPA,
    PUBLIC_BASE_URL: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.API_PORT}`).replace(/\/$/, ''),
  });
}

/** Where development's and tests' QR intents pay: no bank knows it. */
const SANDBOX_PAYEE_VPA = 'merchantgateway@sandbox';

/** Staging and production: real secrets and addresses (staging differs only in running the sandbox). */
export const productionLike = (env: string | undefined) => env === 'production' || env === 'staging';

/**
 * A secret an operator typed or copied from an example rather than generated: too short, a few
 * characters repeated, or one short pattern over and over. A generated value (openssl rand -hex 32)
 * never is one.
 */
export function weakSecret(value: string, minLength: number): string | null {
  if (value.length < minLength) return `at least ${minLength} characters`;
  if (new Set(value.toLowerCase()).size < 8) return 'too few distinct characters (generate it, e.g. openssl rand -hex 32)';
  for (let period = 1; period <= 16 && period < value.length; period++) {
    if (
      value ===
      value
        .slice(0, period)
        .repeat(Math.ceil(value.length / period))
        .slice(0, value.length)
    ) {
      return 'a short pattern repeated (generate it, e.g. openssl rand -hex 32)';
    }
  }
  return null;
}

function strictProblems(c: z.infer<typeof configSchema>): string[] {
  const problems: string[] = [];
  if (!c.PUBLIC_BASE_URL) problems.push(`PUBLIC_BASE_URL: required in ${c.GATEWAY_ENV} (the https address payers reach)`);
  else if (!c.PUBLIC_BASE_URL.startsWith('https://')) problems.push(`PUBLIC_BASE_URL: must be https in ${c.GATEWAY_ENV}`);
  if (!c.UPI_PAYEE_VPA) problems.push(`UPI_PAYEE_VPA: required in ${c.GATEWAY_ENV} (the VPA payers' UPI apps pay to)`);
  else if (/@sandbox$/i.test(c.UPI_PAYEE_VPA))
    problems.push(`UPI_PAYEE_VPA: a @sandbox VPA receives no money (${c.GATEWAY_ENV})`);
  const masterKey = c.MASTER_KEY && weakSecret(c.MASTER_KEY, 64);
  if (masterKey) problems.push(`MASTER_KEY: too weak for ${c.GATEWAY_ENV}: ${masterKey}`);
  const opsToken = c.OPS_TOKEN && weakSecret(c.OPS_TOKEN, 32);
  if (opsToken) problems.push(`OPS_TOKEN: too weak for ${c.GATEWAY_ENV}: ${opsToken}`);
  // It signs the bank's callbacks: a guessable one lets anyone mark an order paid.
  const bankSecret = c.BANK_SECRET && weakSecret(c.BANK_SECRET, 32);
  if (bankSecret) problems.push(`BANK_SECRET: too weak for ${c.GATEWAY_ENV}: ${bankSecret}`);
  if (c.DASHBOARD_PASSWORD_COST < 17)
    problems.push(`DASHBOARD_PASSWORD_COST: at least 17 in ${c.GATEWAY_ENV} (OWASP's scrypt guidance)`);
  return problems;
}

/** The bank connector's settings: http needs its address and secret; production never runs the sandbox bank. */
function bankProblems(c: z.infer<typeof configSchema>): string[] {
  const problems: string[] = [];
  if (c.SANDBOX_ENABLED && c.GATEWAY_ENV === 'production') problems.push('SANDBOX_ENABLED: not allowed in production');
  if (c.BANK_CONNECTOR === 'sandbox' && c.GATEWAY_ENV === 'production') {
    problems.push('BANK_CONNECTOR: the sandbox bank is not allowed in production; set BANK_CONNECTOR=http');
  }
  if (c.BANK_CONNECTOR === 'http') {
    if (!c.BANK_BASE_URL) problems.push('BANK_BASE_URL: required with BANK_CONNECTOR=http');
    if (!c.BANK_SECRET) problems.push('BANK_SECRET: required with BANK_CONNECTOR=http (at least 32 characters)');
    if (c.BANK_BASE_URL && c.GATEWAY_ENV === 'production' && !c.BANK_BASE_URL.startsWith('https://')) {
      problems.push('BANK_BASE_URL: must be https in production');
    }
  }
  return problems;
}

const TEMPORAL_TLS_FILES = ['TEMPORAL_TLS_CA_FILE', 'TEMPORAL_TLS_CERT_FILE', 'TEMPORAL_TLS_KEY_FILE'] as const;

/**
 * mTLS to Temporal: the CA, certificate and key come together or not at all (half a setting would
 * silently connect in plaintext, or fail in the TLS handshake with a less readable error). Staging
 * and production require it: whoever reaches a plaintext frontend can signal a pending payment.
 */
function temporalTlsProblems(c: z.infer<typeof configSchema>): string[] {
  const set = TEMPORAL_TLS_FILES.filter((k) => c[k]);
  const missing = TEMPORAL_TLS_FILES.filter((k) => !c[k]);
  if (set.length > 0 && missing.length > 0) {
    return missing.map((k) => `${k}: required with ${set.join(' and ')} (mTLS to Temporal takes the CA, certificate and key)`);
  }
  if (set.length === 0 && c.TEMPORAL_TLS_SERVER_NAME) {
    return ['TEMPORAL_TLS_SERVER_NAME: only with TEMPORAL_TLS_CA_FILE, TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE'];
  }
  if (set.length === 0 && productionLike(c.GATEWAY_ENV)) {
    return TEMPORAL_TLS_FILES.map((k) => `${k}: required in ${c.GATEWAY_ENV} (Temporal over mTLS, never plaintext)`);
  }
  return [];
}
