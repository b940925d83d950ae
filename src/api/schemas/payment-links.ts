import { z } from 'zod';
import { rupeesToPaise } from '../../domain/money';
import {
  linkExpiryProblem,
  parseLinkExpireBy,
  type CheckedLinkEntry,
  type RefusedLinkEntry,
  LINK_EXPIRE_BY_PATTERN,
  MAX_LINK_LIFETIME_DAYS,
  MAX_LINKS_PER_BATCH,
  QR_IMG_DEFAULT,
  QR_IMG_MAX,
  QR_IMG_MIN,
} from '../../domain/payment-link';
import { descriptionField, emailField, emptyAsAbsent, indianMobileField, orderIdField } from './common';

const qrSide = z.number().int().min(QR_IMG_MIN).max(QR_IMG_MAX);

/** One link of a batch, validated on its own: a bad entry fails alone, with the field named. */
export const paymentLinkEntrySchema = z.object({
  orderId: orderIdField,
  invoiceNumber: z.string().trim().min(1).max(64).optional(),
  amount: z
    .number()
    .min(9)
    .max(1_000_000)
    .describe('rupees, at most 2 decimals, at least 9 and at most 10 lakh')
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'must have at most 2 decimals'),
  internalNotes: z.string().max(500).optional().describe("the merchant's own note; never shown to the payer"),
  linkExpireBy: z
    .string()
    .regex(LINK_EXPIRE_BY_PATTERN, 'must be dd/MM/yyyy HH:mm:ss')
    .describe(`IST, dd/MM/yyyy HH:mm:ss, in the future and within ${MAX_LINK_LIFETIME_DAYS} days`),
  productDescription: descriptionField,
  customerEmail: emptyAsAbsent(emailField),
  customerMobile: emptyAsAbsent(
    z.union([
      indianMobileField,
      z
        .number()
        .int()
        .min(6_000_000_000)
        .max(919_999_999_999)
        .transform((n) => String(n))
        .pipe(indianMobileField),
    ]),
  ).describe(
    'an Indian mobile number as a string (10 digits, alone or after 0, 91 or +91) or a number; kept and echoed as the 10 digits',
  ),
  showQrImg: z.boolean().optional().describe('answer a base64 PNG QR of the link too'),
  qrImgSize: z
    .object({ height: qrSide, width: qrSide })
    .optional()
    .describe(`pixels, ${QR_IMG_MIN}-${QR_IMG_MAX} each; default ${QR_IMG_DEFAULT} x ${QR_IMG_DEFAULT}`),
});
export type PaymentLinkEntry = z.infer<typeof paymentLinkEntrySchema>;

const ENTRY_FIELDS = Object.keys(paymentLinkEntrySchema.shape);

/** The entry's fields the API knows, as sent (for the echo): fields it does not know are ignored, never echoed. */
function knownFields(sent: unknown): unknown {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return sent;
  return Object.fromEntries(Object.entries(sent).filter(([k]) => ENTRY_FIELDS.includes(k)));
}

/** An entry validated on its own: what it asks for, or its first problem, naming the field. */
export function checkPaymentLinkEntry(sent: unknown, now: Date): CheckedLinkEntry<PaymentLinkEntry> | RefusedLinkEntry {
  const raw = knownFields(sent);
  const parsed = paymentLinkEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { raw, problem: `${issue.path.join('.') || 'entry'}: ${issue.message}` };
  }
  const expireBy = parseLinkExpireBy(parsed.data.linkExpireBy);
  if (!expireBy) return { raw, problem: 'linkExpireBy: no such date or time' };
  const expiryProblem = linkExpiryProblem(expireBy, now);
  if (expiryProblem) return { raw, problem: expiryProblem };
  return { raw, entry: parsed.data, amountPaise: rupeesToPaise(parsed.data.amount)!, expireBy };
}

/** The batch: entries are read as they come and each validated on its own. */
export const paymentLinkBatchSchema = z.object({
  batchId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._\-/]{0,63}$/, 'must be 1-64 characters: letters, digits and . _ - /')
    .describe('unique per merchant; the same request again answers the same links'),
  details: z.array(z.unknown()).min(1).max(MAX_LINKS_PER_BATCH),
});

/** The same batch as the API reference shows it, with the entry's fields. */
export const paymentLinkBatchDocSchema = paymentLinkBatchSchema.extend({
  details: z.array(paymentLinkEntrySchema).min(1).max(MAX_LINKS_PER_BATCH),
});

/** One entry's answer: what was sent, echoed (valid entries as the contract formats them), and the outcome. */
export const paymentLinkResultSchema = z
  .object({
    ...Object.fromEntries(ENTRY_FIELDS.map((k) => [k, z.unknown().optional()])),
    amount: z.unknown().optional().describe('a number (rupees)'),
    linkExpireBy: z.unknown().optional().describe('yyyy-MM-dd HH:mm:ss (IST) when the entry is valid, else as sent'),
    customerMobile: z.unknown().optional().describe('a string when the entry is valid'),
    link: z.string().nullable(),
    qrCode: z.string().optional().describe('base64 PNG of the link, when showQrImg'),
    errorDescription: z.string().optional().describe('present on failure: what is wrong, naming the field'),
  })
  .describe(
    "the entry's fields as sent (fields the API does not know are not echoed), with link and qrCode, or link null and errorDescription",
  );

export const paymentLinkResponseSchema = z.object({
  success: z.boolean().describe('true when every entry got a link'),
  statusCode: z.number().int().describe('200 all, 207 some, 400 none'),
  errorMessage: z.string().nullable(),
  data: z.array(paymentLinkResultSchema),
});
