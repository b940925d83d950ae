import { z } from 'zod';
import { formatIstDateTime } from './ist-time';
import { paymentModeText, type ShownInstrument } from './instrument';
import { mandateStatusView, type Mandate } from './mandate';
import { paiseToWire } from './money';
import { publishedOutcome } from './response-codes';
import type { Transaction } from './transaction';
import { TxnStatus } from './txn-status';

const istDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .describe('yyyy-MM-dd HH:mm:ss, IST');

/** One element of the status API's `data.orders`, exactly as the contract names its fields. */
export const statusOrderRecordSchema = z.object({
  orderDetail: z.object({
    orderId: z.string(),
    txnId: z.string().describe('gateway transaction id'),
    amount: z.string().regex(/^\d+$/).describe('integer paise'),
    productDescription: z.string(),
    createDate: istDateTime,
  }),
  paymentInstrument: z.object({
    paymentMode: z
      .string()
      .describe('UPI, Credit Card, Debit Card or Net Banking; UPI_MANDATE for a mandate read by its create orderId'),
    card: z
      .object({ cardToken: z.string().describe('masked card number; NA unless a card'), cardId: z.string() })
      .describe('always an object: both NA for UPI, net banking and mandates'),
  }),
  txnDate: istDateTime,
  txnStatus: z
    .enum(['0', '1', '2', '3', '4', '5', '6', '7', '8'])
    .describe(
      '0 Success, 1 Failure, 2 Pending, 3 Refund, 4 Partial Refund, 5 Chargeback Reverted, 6 Chargeback, 7 Partial Chargeback Reverted, 8 Partial Chargeback',
    ),
  responseCode: z.string(),
  responseDescription: z.string(),
  refundDetails: z.array(
    z.object({
      merchantRefId: z.string(),
      amount: z.string().regex(/^\d+$/).describe('integer paise'),
      rrn: z.string(),
      refundStatus: z.enum(['SUCCESS', 'PENDING', 'FAILED']),
    }),
  ),
});
export type StatusOrderRecord = z.infer<typeof statusOrderRecordSchema>;

/** The card of a payment that had none (design.md, Status API records): the webhook's NA for text without data. */
const NO_CARD = { cardToken: 'NA', cardId: 'NA' } as const;

/** What a record is made of (never the buyer's details, nor a VPA): the status API reads only these. */
export const STATUS_SOURCE_FIELDS = [
  'merchantIdentifier',
  'orderId',
  'txnId',
  'amountPaise',
  'productDescription',
  'createdAt',
  'instrument',
  'completedAt',
  'updatedAt',
  'status',
  'responseCode',
  'responseDescription',
  'refunds',
] as const;
export type StatusSource = Pick<Transaction, Exclude<(typeof STATUS_SOURCE_FIELDS)[number], 'instrument'>> & {
  instrument: ShownInstrument;
};

export function toStatusOrderRecord(t: StatusSource): StatusOrderRecord {
  return {
    orderDetail: {
      orderId: t.orderId,
      txnId: t.txnId,
      amount: paiseToWire(t.amountPaise),
      productDescription: t.productDescription,
      createDate: formatIstDateTime(t.createdAt),
    },
    paymentInstrument: {
      paymentMode: paymentModeText(t.instrument),
      card: t.instrument.kind === 'CARD' ? { cardToken: t.instrument.cardToken, cardId: t.instrument.cardId } : { ...NO_CARD },
    },
    txnDate: formatIstDateTime(t.completedAt ?? t.updatedAt),
    txnStatus: String(TxnStatus[t.status]) as StatusOrderRecord['txnStatus'],
    ...publishedOutcome(t),
    refundDetails: t.refunds.map((r) => ({
      merchantRefId: r.merchantRefId,
      amount: paiseToWire(r.amountPaise),
      rrn: r.rrn ?? 'NA',
      refundStatus: r.status,
    })),
  };
}

/**
 * A mandate read through the status API by its create orderId (design.md, Status API records): txnStatus 2 while
 * the payer has not answered, 0 while ACTIVE, 1 once it can debit no more; the code tells which.
 */
export function toStatusMandateRecord(m: Mandate): StatusOrderRecord {
  const view = mandateStatusView(m.state);
  return {
    orderDetail: {
      orderId: m.orderId,
      txnId: m.txnId,
      amount: paiseToWire(m.maxAmountPaise),
      productDescription: m.productDescription,
      createDate: formatIstDateTime(m.createdAt),
    },
    paymentInstrument: { paymentMode: 'UPI_MANDATE', card: { ...NO_CARD } },
    txnDate: formatIstDateTime(m.updatedAt),
    txnStatus: view.txnStatus,
    responseCode: view.code,
    responseDescription: view.description,
    refundDetails: [],
  };
}
