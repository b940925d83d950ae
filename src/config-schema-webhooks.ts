import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { parseDurationList } from './domain/durations';
import { bool, commaSeparated, firstDuration } from './config-schema-fields';

/** Configuration of webhook delivery: retries, batching, timeouts, endpoints (`webhooks`). */
export const webhookSettings = z.object({
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
  WEBHOOK_ATTEMPT_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(15)
    .default(15)
    .describe('how long one webhook attempt waits for the merchant to answer before it counts as failed'),
  WEBHOOK_SECRET_ROTATION_OVERLAP: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 24h')
    .default('24h')
    .transform(firstDuration)
    .describe('after a webhook signing secret is rotated, how long the old one still signs calls beside the new one'),
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
});
