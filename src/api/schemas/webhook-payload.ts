import { z } from 'zod';
import type { SettlementProcessedEvent } from '../../domain/settlement-webhook';

/**
 * What the gateway posts to a merchant's webhook URL (design.md, Webhooks), for the API
 * reference's `webhooks` section and so for the merchant SDK's generated types: `txnData` is a JSON
 * text whose parsed shape is `txnDataSchema`; `checksum` is the HMAC-SHA256 of that exact text.
 */
const text = z.string();

/** A real-time entry (domain/webhook.ts realtimeEntry): every field a string, `NA` where there is no data. */
export const realtimeTxnSchema = z.object({
  amount: text.describe('paise'),
  pgTransId: text,
  orderId: text,
  paymentMode: text,
  cardScheme: text,
  productDescription: text,
  product1Description: text,
  product2Description: text,
  product3Description: text,
  product4Description: text,
  cardToken: text,
  responseCode: text,
  bank: text,
  bankid: text,
  doRedirect: text,
  responseDescription: text,
  cardId: text,
  cardhashid: text,
  paymentMethod: text,
  pgTransTime: text.describe('MM/dd/yyyy HH:mm:ss, IST'),
  txnDate: text.describe('yyyy-MM-dd HH:mm:ss.SSS, IST'),
  authCode: text.optional().describe('successful entries only'),
  bankRefNum: text.optional().describe('successful entries only'),
});

/**
 * A non-real-time entry (domain/webhook-late.ts lateEntry): a reconciliation success in `txns`, an
 * auto-refund in `refunds`; a refund outcome or a chargeback change (domain/webhook-update.ts)
 * adds what changed.
 */
export const lateTxnSchema = z.object({
  amount: z.number().int().describe('paise: the transaction’s, or the refund’s in `refunds`'),
  orderid: text,
  txnDate: text.describe('yyyy-MM-dd HH:mm:ss.S, IST'),
  txnStatus: z
    .enum(['0', '1', '2', '3', '4', '5', '6', '7', '8'])
    .optional()
    .describe('refund outcomes and chargebacks: the status API’s txnStatus the change left'),
  merchantRefId: text.optional().describe('refund outcomes: the refund’s merchantRefId'),
  refundStatus: z.enum(['SUCCESS', 'FAILED']).optional().describe('refund outcomes: how the bank settled it'),
  chargebackAmount: z.number().int().optional().describe('chargebacks: the amount charged back, paise'),
});

export const txnDataSchema = z.object({
  merchantIdentifier: text,
  txns: z.array(z.union([realtimeTxnSchema, lateTxnSchema])).describe('real-time calls: one full entry; others: short entries'),
  refunds: z.array(lateTxnSchema).describe('auto-refunds and refund outcomes (non-real-time calls only)'),
});

export const webhookBodySchema = z.object({
  txnData: text.describe('the JSON text of a TxnData object, exactly as signed'),
  checksum: text.describe('HMAC-SHA256 (lowercase hex) of the exact txnData text with the secret key'),
});

const rupees = text.describe('rupees with two decimals, as text (as getSettlementReport carries money)');

/**
 * The `settlement.processed` call's `txnData` (domain/settlement-webhook.ts), sent to merchants who
 * opt in when a settlement is paid; `satisfies` keeps it the shape the domain builds.
 */
export const settlementProcessedSchema = z.object({
  event: z.literal('settlement.processed'),
  settlementId: text.describe('settlement:<merchantIdentifier>:<yyyy-MM-dd>'),
  merchantIdentifier: text,
  settlementDate: text.describe('dd-MM-yyyy, IST: the UTR date, as getSettlementReport takes it in utr_date'),
  utr: text.describe("the bank's reference of the payout"),
  paidAt: text.describe('yyyy-MM-dd HH:mm:ss, IST'),
  transactionCount: text.describe('lines settled: sales, refunds, chargebacks and their reversals'),
  grossAmount: rupees.describe('the sales'),
  refundAmount: rupees.describe('refunds deducted'),
  chargebackAmount: rupees.describe('chargebacks deducted, net of reversals'),
  feeAmount: rupees.describe('fees'),
  taxAmount: rupees.describe('GST on the fees'),
  carriedInAmount: rupees.describe('what earlier settlements carried into this one (negative: a deficit)'),
  netAmount: rupees.describe('what the bank paid into your account'),
}) satisfies z.ZodType<SettlementProcessedEvent>;
