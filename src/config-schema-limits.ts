import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { parseDurationList } from './domain/durations';
import { bool, commaSeparated, firstDuration } from './config-schema-fields';

/** Configuration: caches, body and rate limits, the dashboard, webhooks, timeouts, time skipping and logging. */
export const limitSettings = z.object({
  MERCHANT_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30)
    .describe(
      "how long a process keeps a merchant it opened (0 turns the cache off); each request still reads the merchant's version, so a change is seen at once",
    ),
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
  SETTLEMENT_REPORT_CALLS_PER_HOUR: z.coerce
    .number()
    .int()
    .min(0)
    .default(2)
    .describe(
      "calls an hour per merchant to Zaakpay's Settlement API (Zaakpay's own limit: 2); 429 past it; 0 turns the limit off",
    ),
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
    .transform(parseDurationList)
    .describe('waits before each webhook attempt (the first is usually 0); after the last attempt the delivery fails'),
  WEBHOOK_QUICK_RETRIES_WITHIN: z
    .string()
    // abort: the bound below only reads what the pattern accepted.
    .regex(/^\s*\d+(ms|s)?\s*$/, { message: 'a wait such as 5s (at most 30s)', abort: true })
    .refine((v) => parseDurationList(v)[0] <= 30_000, 'at most 30s')
    .default('5s')
    .transform(firstDuration)
    .describe(
      "webhook attempts whose waits since the first add up to at most this are retried by the transaction's workflow itself; later ones by the delivery's own workflow (0: every retry there)",
    ),
  WEBHOOK_BATCH_WINDOW: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 500ms or 5s')
    .default('5s')
    .transform(firstDuration)
    .describe('how long late updates of one merchant are gathered before they are cut into non-real-time webhook calls'),
  SECRET_KEY_ROTATION_OVERLAP: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 24h')
    .default('24h')
    .transform(firstDuration)
    .describe("after a merchant's secret key is rotated, how long checksums made with the old one are still accepted"),
  WEBHOOK_SECRET_ROTATION_OVERLAP: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 24h')
    .default('24h')
    .transform(firstDuration)
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
    .transform(firstDuration)
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
    .transform(commaSeparated)
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
