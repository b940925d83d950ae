import { z } from 'zod';
import { hmacSha256Hex } from './checksum';
import { formatIstDateTime } from './ist-time';
import { paymentModeText, type PaymentInstrument } from './instrument';
import { ledgerStateOf } from './ledger-state';
import { paiseToRupees } from './money';
import { publishedOutcome } from './response-codes';
import type { Transaction } from './transaction';

const istDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .describe('yyyy-MM-dd HH:mm:ss, IST');
const rupees = z.number().describe('rupees, at most 2 decimals');

const refundEntries = z.array(
  z.object({
    refundReferenceNumber: z.string().describe("the refund's merchantRefId"),
    createdAt: istDateTime,
    amount: rupees,
  }),
);
/** The ledger's refundDetail: the contract types it "array or null". */
const ledgerRefundDetailSchema = refundEntries
  .nullable()
  .describe('refunds started on the transaction and not failed; null when there are none');
/** The bulk record's refundDetail: the contract types it an array (design.md, Status API records). */
const bulkRefundDetailSchema = refundEntries.describe(
  'refunds started on the transaction and not failed; [] when there are none',
);

/** One element of the ledger's `data.transactions`, in the contract's field order. */
export const ledgerRecordSchema = z.object({
  txnInitiatedDate: istDateTime,
  txnLastUpdatedDate: istDateTime,
  txnSuccessDate: istDateTime.nullable().describe('null unless the payment succeeded'),
  status: z.enum(['SUCCESS', 'FAILED', 'PENDING']),
  state: z.number().int(),
  stateDescription: z.string(),
  responseCode: z.number().int().nullable().describe("Zaakpay's outcome code; null while PENDING"),
  responseDescription: z.string().nullable().describe('null while PENDING'),
  orderId: z.string(),
  txnId: z.string(),
  amountInRupees: rupees,
  brand: z.string().nullable().describe('card network; null unless a card'),
  cardType: z.enum(['CREDIT', 'DEBIT']).nullable(),
  buyerName: z.string().describe('NA when not given'),
  buyerEmail: z.string().describe('NA when not given'),
  bankName: z.string().describe('NA when not known'),
  cardNumber: z.string().nullable().describe('masked; null unless a card'),
  paymentSource: z.enum(['Card', 'Net Banking', 'UPI', 'NA']).describe('NA for a payment link or checkout nobody paid'),
  refundDetail: ledgerRefundDetailSchema,
});
export type LedgerRecord = z.infer<typeof ledgerRecordSchema>;

/** One element of the bulk API's `data`, in the contract's field order. */
export const bulkRecordSchema = z.object({
  txnInitiatedDate: istDateTime,
  txnSuccessDate: istDateTime,
  orderid: z.string(),
  txnid: z.string(),
  amount: rupees,
  paymentSource: z.enum(['Card', 'Net Banking', 'UPI']).describe('Card for a card of either type (cardType says which)'),
  brand: z.string().nullable(),
  cardType: z.enum(['CREDIT', 'DEBIT']).nullable(),
  buyerName: z.string().nullable(),
  buyerEmail: z.string().nullable(),
  status: z.literal('Success'),
  approvalCode: z
    .number()
    .int()
    .nullable()
    .describe("the bank's approval (auth) code as a number, as Zaakpay's sample; null when it gave none or one not all digits"),
  productDescription: z.string(),
  productDescription1: z.string().nullable(),
  productDescription2: z.string().nullable(),
  productDescription3: z.string().nullable(),
  productDescription4: z.string().nullable(),
  checksum: z.string().describe("HMAC-SHA256 (secret key) of this record's JSON without its checksum field, keys in this order"),
  bankName: z.string().nullable(),
  cardNumber: z.string().nullable(),
  ipAddress: z.string().nullable(),
  refundDetail: bulkRefundDetailSchema,
});
export type BulkRecord = z.infer<typeof bulkRecordSchema>;

const card = (i: PaymentInstrument) => (i.kind === 'CARD' ? i : null);
const bankName = (i: PaymentInstrument) => ('bankName' in i ? i.bankName : null);
const responseCodeNumber = (code: string) => (/^\d+$/.test(code) ? Number(code) : null);
/** Zaakpay's bulk sample carries the approval code as a number (design.md, Status API records). */
const approvalCodeNumber = (code: string | null) => (code !== null && /^\d{1,15}$/.test(code) ? Number(code) : null);

/** The refunds started on the transaction and not failed, as both records list them. */
function refundDetail(t: Transaction): BulkRecord['refundDetail'] {
  return t.refunds
    .filter((r) => r.status !== 'FAILED')
    .map((r) => ({
      refundReferenceNumber: r.merchantRefId,
      createdAt: formatIstDateTime(r.createdAt),
      amount: paiseToRupees(r.amountPaise),
    }));
}

/** `paymentSource` as Zaakpay's ledger and bulk samples write it: `Card` for any card, cardType saying which. */
const paymentSource = (i: PaymentInstrument) =>
  i.kind === 'CARD' ? 'Card' : (paymentModeText(i) as 'Net Banking' | 'UPI' | 'NA');

const nullWhenEmpty = <T>(list: T[]): T[] | null => (list.length === 0 ? null : list);

export function toLedgerRecord(t: Transaction): LedgerRecord {
  const c = card(t.instrument);
  const state = ledgerStateOf(t);
  // A Pending transaction has no outcome yet: null, as Zaakpay's ledger sample (design.md, Outcome codes).
  const outcome = t.status === 'Pending' ? null : publishedOutcome(t);
  return {
    txnInitiatedDate: formatIstDateTime(t.createdAt),
    txnLastUpdatedDate: formatIstDateTime(t.updatedAt),
    txnSuccessDate: t.successAt ? formatIstDateTime(t.successAt) : null,
    status: state.status,
    state: state.state,
    stateDescription: state.stateDescription,
    responseCode: outcome ? responseCodeNumber(outcome.responseCode) : null,
    responseDescription: outcome?.responseDescription || null,
    orderId: t.orderId,
    txnId: t.txnId,
    amountInRupees: paiseToRupees(t.amountPaise),
    brand: c?.brand ?? null,
    cardType: c?.cardType ?? null,
    buyerName: t.buyerName ?? 'NA',
    buyerEmail: t.buyerEmail ?? 'NA',
    bankName: bankName(t.instrument) ?? 'NA',
    cardNumber: c?.cardToken ?? null,
    paymentSource: paymentSource(t.instrument),
    refundDetail: nullWhenEmpty(refundDetail(t)),
  };
}

/**
 * A bulk record, signed: the checksum is the HMAC of the record's JSON without `checksum`, the other
 * keys in the order they are returned (design.md, Limits and pagination). Only successful transactions are bulk records.
 */
export function toBulkRecord(t: Transaction, secretKey: string): BulkRecord {
  const c = card(t.instrument);
  const unsigned = {
    txnInitiatedDate: formatIstDateTime(t.createdAt),
    txnSuccessDate: formatIstDateTime(t.successAt ?? t.completedAt ?? t.updatedAt),
    orderid: t.orderId,
    txnid: t.txnId,
    amount: paiseToRupees(t.amountPaise),
    paymentSource: paymentSource(t.instrument) as BulkRecord['paymentSource'],
    brand: c?.brand ?? null,
    cardType: c?.cardType ?? null,
    buyerName: t.buyerName,
    buyerEmail: t.buyerEmail,
    status: 'Success' as const,
    approvalCode: approvalCodeNumber(t.authCode),
    productDescription: t.productDescription,
    productDescription1: t.product1Description ?? null,
    productDescription2: t.product2Description ?? null,
    productDescription3: t.product3Description ?? null,
    productDescription4: t.product4Description ?? null,
  };
  const rest = {
    bankName: bankName(t.instrument),
    cardNumber: c?.cardToken ?? null,
    ipAddress: t.ipAddress,
    refundDetail: refundDetail(t),
  };
  const checksum = hmacSha256Hex(secretKey, JSON.stringify({ ...unsigned, ...rest }));
  return { ...unsigned, checksum, ...rest };
}
