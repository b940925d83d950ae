import { z } from 'zod';
import { MANDATE_UPDATES_PER_RUN } from './temporal/mandate-messages';
import { bool, instant } from './config-schema-fields';

/** Configuration of taking money: the sandbox, the bank, payments, QR codes, UPI and mandates. */
export const paymentSettings = z.object({
  SANDBOX_ENABLED: bool
    .optional()
    .describe('serve /sandbox/v1 (the sandbox payer); default: on outside production, and production refuses it'),
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
  CHECKOUT_EXPIRY_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(1800)
    .describe(
      'how long a hosted checkout waits for its payer before the order becomes Failure (183 to the merchant, reason 1024 in the store)',
    ),
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
  QR_IMAGE_UNLABELLED_UNTIL: instant
    .optional()
    .describe(
      "until when QR image addresses signed the earlier way (without the gateway's qr-image label) are still served: set it past the last such QR's expiry when upgrading; unset, they are refused",
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
  MANDATE_DEBIT_RETRY_MINUTES: z.coerce
    .number()
    .positive()
    .max(1440)
    .default(60)
    .describe('wait between a failed mandate debit attempt and its retry (one attempt plus at most 3 retries)'),
  MANDATE_UPDATES_PER_RUN: z.coerce
    .number()
    .int()
    .min(10)
    .max(1_800)
    .default(MANDATE_UPDATES_PER_RUN)
    .describe(
      "updates (notifies, revokes) a mandate's workflow run takes before it continues as new; keep it well under the Temporal namespace's history.maxTotalUpdates (2,000 by default)",
    ),
});
