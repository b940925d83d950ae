import { z } from 'zod';
import { MAX_AMOUNT_PAISE } from '../../domain/money';
import { amountPaiseField, emptyAsAbsent, merchantIdentifierField, modeField, orderIdField } from './common';

/** The form fields of POST /updateTxn (Zaakpay's Update/Refund API); fields it does not know are ignored. */
export const updateTxnFormSchema = z.object({
  data: z.string().min(1).describe('the refund request as a JSON string; the checksum covers these exact characters'),
  checksum: z.string().optional().describe('HMAC-SHA256 (hex) of the exact `data` string with the secret key'),
});

/** `data`, after authentication. updateDesired and updateReason are checked by Zaakpay's own codes (184-187). */
export const updateTxnDataSchema = z.object({
  merchantIdentifier: merchantIdentifierField,
  orderDetail: z.object({
    orderId: orderIdField,
    // Zaakpay's Node kit sends "" (no amount) on a full refund, or the paise as a JSON number.
    amount: emptyAsAbsent(
      z.union([
        z
          .string()
          .regex(/^[1-9]\d{0,8}$/, 'must be a whole number of paise, as a string')
          .refine((a) => Number(a) <= MAX_AMOUNT_PAISE, `must be at most ${MAX_AMOUNT_PAISE} paise`),
        amountPaiseField.transform(String),
      ]),
    ).describe(
      'paise, as a string (or a whole number); required for a partial refund (22), optional for a full one (14); "" is no amount',
    ),
    productDescription: z.string().max(255).optional(),
  }),
  mode: modeField.optional(),
  updateDesired: z.unknown().optional().describe('"14" full refund or "22" partial refund (7 and 8 are not offered: 185)'),
  updateReason: z
    .unknown()
    .optional()
    .describe('5 to 30 letters, digits and spaces; "sandbox fail" makes the sandbox bank fail it'),
  merchantRefId: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits and . _ -')
    .optional()
    .describe(
      "the merchant's id of this refund, unique per order; the idempotency key. Without one, the same `data` text within 24 hours answers as the first (one refund, the same generated merchantRefId); later it is a new refund",
    ),
});

export const updateTxnResponseSchema = z.object({
  merchantIdentifier: z.string().nullable(),
  orderDetail: z.object({ orderId: z.string() }).nullable(),
  responseCode: z.string(),
  responseDescription: z.string(),
  merchantRefId: z.string().nullable(),
});
