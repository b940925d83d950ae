import { z } from 'zod';
import { ACCOUNT_NUMBER_PATTERN, IFSC_PATTERN } from '../../domain/settlement-account';
import { CUSTOM_IDENTIFIER_PATTERN } from '../../domain/split';

const merchantIdentifierField = z.string().regex(/^[A-Za-z0-9]{6,64}$/, 'must be 6 to 64 letters and digits');

/** The settlement bank account as the operator API, the CLI and the dashboard take it. */
export const settlementAccountSchema = z.strictObject({
  ifsc: z
    .string()
    .regex(IFSC_PATTERN, 'must be an IFSC: 4 capital letters, then 0, then 6 capital letters or digits (e.g. HDFC0001234)'),
  accountNumber: z.string().regex(ACCOUNT_NUMBER_PATTERN, 'must be 9 to 18 digits'),
  holderName: z
    .string()
    .min(1)
    .max(100)
    .regex(/^\S(?:[\s\S]*\S)?$/, 'must not start or end with whitespace'),
});

export const maskedSettlementAccountSchema = z.object({
  ifsc: z.string(),
  accountLast4: z.string(),
  accountNumberMasked: z.string().describe('X for every digit but the last four'),
  holderName: z.string(),
  updatedAt: z.string().describe('ISO 8601'),
  changedBy: z.string().nullable().describe('who made the last change: `owner <email>` or `operators <proposer> + <confirmer>`'),
  coolingUntil: z.string().nullable().describe('ISO 8601: payouts to this account wait until then (null: they do not)'),
});

export const pendingSettlementAccountSchema = z.object({
  ifsc: z.string(),
  accountLast4: z.string(),
  accountNumberMasked: z.string(),
  holderName: z.string(),
  proposedBy: z.string().describe("the proposing operator's name"),
  proposedAt: z.string().describe('ISO 8601'),
});

/** An operator's early confirmation of a cooling account: its last four digits, as the operator checked them. */
/** A confirmation names the pending change it confirms, both as the GET shows them. */
export const confirmProposalSchema = z.strictObject({
  proposedAt: z.string().datetime({ message: 'must be the pendingChange.proposedAt the GET shows' }),
  accountLast4: z.string().regex(/^\d{4}$/, 'must be the pendingChange.accountLast4 the GET shows'),
});

export const confirmEarlySchema = z.strictObject({
  accountLast4: z.string().regex(/^\d{4}$/, 'must be the last four digits of the account'),
});

export const settlementAccountResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string(),
    settlementAccount: maskedSettlementAccountSchema.nullable().describe('null: no account set yet'),
    pendingChange: pendingSettlementAccountSchema
      .nullable()
      .describe("an operator's change waiting for a second operator's confirmation (null: none)"),
  }),
});

export const masterLinkSchema = z.strictObject({
  masterMerchantIdentifier: merchantIdentifierField.nullable().describe('null removes the link'),
  customIdentifier: z
    .string()
    .regex(CUSTOM_IDENTIFIER_PATTERN, 'must be 1-64 letters, digits and . _ -')
    .optional()
    .describe(
      "the master's own name for this sub-merchant, as its split requests send it with isCustomIdentifier true; one sub-merchant per name and master; left out, the link has none",
    ),
});

/**
 * The same as the API reference states it: a link (with its optional custom identifier), or `null`
 * alone (an unlinked merchant has no custom identifier, which the route refuses with 400).
 */
export const masterLinkDocSchema = z.union([
  masterLinkSchema.extend({ masterMerchantIdentifier: merchantIdentifierField.describe('the master merchant') }),
  z.strictObject({
    masterMerchantIdentifier: z.null().describe('null removes the link (and its custom identifier: send none)'),
  }),
]);

export const masterLinkResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string(),
    masterMerchantIdentifier: z.string().nullable(),
    customIdentifier: z.string().nullable(),
  }),
});

/** Zaakpay's Settlement API request (its fields as it names them; unknown fields ignored). */
export const settlementReportRequestSchema = z.object({
  merchantIdentifier: z.string(),
  utr_date: z.string().describe('the settlement (UTR) date, dd-MM-yyyy'),
  checksum: z.string().describe('HMAC-SHA256 (hex) of the text `merchantIdentifier,utr_date` under the secret key'),
});

const rupeesText = z.string().describe('rupees with two decimals, as text; never negative');
export const settlementReportResponseSchema = z.object({
  report: z.array(
    z.object({
      partner_transaction_id: z.string().describe("the gateway's txnId"),
      client_transaction_id: z.string().describe('the orderId'),
      txn_date: z.string().describe('capture time, yyyy-MM-dd HH:mm:ss IST'),
      amount: rupeesText,
      settlement_date: z.string().describe('yyyy-MM-dd'),
      settlement_action: z.enum(['SALE', 'REFUND', 'CHARGEBACK', 'CHARGEBACK_REVERSAL']),
      transaction_utr: z.string().describe("the payout's UTR; empty until the settlement is paid"),
      partner_service_fee: rupeesText,
      partner_service_tax: rupeesText.describe('18 % GST on the fee'),
      settlement_amount: rupeesText.describe(
        'amount - fee - tax; positive on every line: SALE and CHARGEBACK_REVERSAL add it, REFUND and CHARGEBACK deduct it',
      ),
      rrn: z.string(),
      arn: z.string(),
    }),
  ),
  responsecode: z.string(),
  responsedescription: z.string(),
});

const splitParticipant = z.object({
  zaakMerchantIdentifier: z.string().optional(),
  merchantIdentifier: z.string().optional(),
  merchantAmount: z.union([z.string(), z.number()]).describe('integer paise, as digits or a JSON integer'),
});
/** The documented shape of the split request (the route validates with domain/split.ts's schema). */
export const splitRequestDocSchema = z.object({
  orderId: z.string(),
  orderAmount: z.union([z.string(), z.number()]).describe("integer paise: the order's amount"),
  masterMerchantIdentifier: splitParticipant,
  subMerchantIdentifiers: z.array(splitParticipant),
  isCustomIdentifier: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
});

export const splitResponseSchema = z.object({
  status: z.enum(['SUCCESS', 'FAILURE']),
  errorCode: z.string(),
  errorDescription: z.string(),
  orderId: z.string().nullable(),
});

export const SETTLEMENT_LIST_DEFAULT_COUNT = 10;
export const SETTLEMENT_LIST_MAX_COUNT = 100;

/** The settlement list's request: a merchant API, so an unknown field is ignored as the others' are. */
export const settlementListRequestSchema = z.object({
  count: z
    .number()
    .int()
    .min(1)
    .max(SETTLEMENT_LIST_MAX_COUNT)
    .optional()
    .describe(`how many of the latest settlements; default ${SETTLEMENT_LIST_DEFAULT_COUNT}`),
});

const rupees = z.string().describe('rupees with two decimals, as text');
const settlementListEntrySchema = z.object({
  settlementId: z.string().describe("the settlement's id, as the settlement.processed webhook names it"),
  settlementDate: z.string().describe("dd-MM-yyyy: the UTR date, the Settlement API's utr_date"),
  state: z.enum(['open', 'payout_requested', 'paid', 'carried_forward', 'payout_refused', 'held']),
  utr: z.string().describe('empty until paid'),
  paidAt: z.string().describe('yyyy-MM-dd HH:mm:ss IST; empty until paid'),
  transactionCount: z.string().describe('the lines settled'),
  grossAmount: rupees,
  refundAmount: rupees,
  chargebackAmount: rupees,
  feeAmount: rupees,
  taxAmount: rupees,
  carriedInAmount: rupees.describe('what earlier settlements carried into this one; negative for a deficit'),
  netAmount: rupees.describe(
    "what this settlement pays (paid) or is paying (payout_requested, held); for carried_forward and payout_refused it was not paid and is in the next settlement's carriedInAmount, so never add it up over the list",
  ),
});
export type SettlementListEntry = z.infer<typeof settlementListEntrySchema>;

export const settlementListResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ settlements: z.array(settlementListEntrySchema) }),
});
