import { z } from 'zod';
import { emptyAsAbsent, merchantIdentifierField, modeField, orderIdField, paiseStringField } from './common';

/**
 * The flat forms of Zaakpay's legacy XML APIs (design.md, Legacy XML APIs), read after the
 * checksum matched. Fields they do not know (the kits' `submitButton`) are ignored but signed.
 */
export const legacyCheckFormSchema = z.object({
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField,
  mode: emptyAsAbsent(modeField),
  checksum: z
    .string()
    .describe('HMAC-SHA256 (hex) of every posted field but checksum, each value in single quotes, in the order posted'),
});

export const legacyUpdateFormSchema = legacyCheckFormSchema.extend({
  updateDesired: z.string().optional().describe('"14" full refund or "22" partial refund (7 and 8 are not offered: 185)'),
  updateReason: z.string().optional().describe('5 to 30 letters, digits and spaces'),
  amount: emptyAsAbsent(paiseStringField).describe('paise; required for a partial refund (22)'),
  merchantRefId: emptyAsAbsent(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits and . _ -')).describe(
    "the merchant's id of this refund, unique per order; when absent the same signed form within 24 hours answers as the first (one refund)",
  ),
});
