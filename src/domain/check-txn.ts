import { z } from 'zod';
import { statusOrderRecordSchema, type StatusOrderRecord } from './status-record';
import { RefundResponse } from './refund';
import { PublishedOutcome } from './response-codes';
import type { RefundEntry, Transaction } from './transaction';
import { realtimeEntry } from './webhook';

/**
 * Zaakpay's legacy status API, `POST /checkTxn?v=5` (design.md, Legacy status): the status API's
 * order record with the further product descriptions and the card's details, and Zaakpay's codes.
 */

/**
 * Zaakpay's check status codes the gateway answers with, every one with HTTP 200 as Zaakpay does
 * (only the limits and outages, 413, 415, 429 and 503, keep their status lines).
 */
export const CheckTxnCodes = {
  found: PublishedOutcome.success,
  merchantIdentifierMissing: { code: '110', description: 'MerchantIdentifier field missing or blank' },
  merchantIdentifierInvalid: { code: '111', description: 'MerchantIdentifier not valid' },
  orderIdMissing: { code: '129', description: 'OrderId field missing or blank' },
  checksumMismatch: { code: '180', description: 'Checksum received with request is not equal to what we calculated' },
  checksumBlank: { code: '189', description: 'Checksum was blank.' },
  orderNotFound: { code: '190', description: 'OrderId either not processed or Rejected.' },
  requestInvalid: { code: '191', description: 'Merchant Identifier or Order Id was not valid' },
} as const;
export type CheckTxnCode = keyof typeof CheckTxnCodes;

const orderDetail = statusOrderRecordSchema.shape.orderDetail;
const refundEntry = statusOrderRecordSchema.shape.refundDetails.element;
export const checkTxnOrderRecordSchema = statusOrderRecordSchema.extend({
  responseCode: z.string().describe("the payment's code; after a refund, its latest refund's: 230 full, 245 partial"),
  responseDescription: z.string(),
  orderDetail: orderDetail.extend({
    product1Description: z.string().describe('NA when not sent'),
    product2Description: z.string(),
    product3Description: z.string(),
    product4Description: z.string(),
  }),
  paymentInstrument: z.object({
    paymentMode: z.string(),
    card: z
      .object({
        cardToken: z.string(),
        cardId: z.string(),
        cardScheme: z.string(),
        first4: z.string(),
        last4: z.string(),
        bank: z.string(),
        cardHashId: z.string(),
        paymentMethod: z.string(),
      })
      .describe('NA in every field unless a card paid'),
  }),
  refundDetails: z.array(
    refundEntry.extend({ arn: z.string().describe("the refund's bank reference (the rrn); NA until the bank gave one") }),
  ),
  userAccountDebited: z.boolean().describe('true once money left the payer (the payment succeeded, whatever happened after)'),
});
export type CheckTxnOrderRecord = z.infer<typeof checkTxnOrderRecordSchema>;

/** orders[0] for an order the merchant does not have: what was asked and 190, so `orders[0].responseCode` reads. */
export const checkTxnUnknownOrderSchema = z.object({
  orderDetail: z.object({ orderId: z.string() }),
  responseCode: z.literal(CheckTxnCodes.orderNotFound.code),
  responseDescription: z.string(),
});

export function unknownOrderEntry(orderId: string): z.infer<typeof checkTxnUnknownOrderSchema> {
  const c = CheckTxnCodes.orderNotFound;
  return { orderDetail: { orderId }, responseCode: c.code, responseDescription: c.description };
}

/**
 * The status API's record of an order with what `/checkTxn` adds: the transaction's further
 * product descriptions and card (a mandate, which has neither, carries NA). With a merchantRefId,
 * only that refund is listed.
 */
export function toCheckTxnRecord(record: StatusOrderRecord, t: Transaction | null, merchantRefId?: string): CheckTxnOrderRecord {
  const e: Record<string, string | undefined> = t ? realtimeEntry(t) : {};
  const na = (v: string | undefined) => v ?? 'NA';
  const token = t?.instrument.kind === 'CARD' ? t.instrument.cardToken : null;
  return {
    ...record,
    orderDetail: {
      ...record.orderDetail,
      product1Description: na(e.product1Description),
      product2Description: na(e.product2Description),
      product3Description: na(e.product3Description),
      product4Description: na(e.product4Description),
    },
    paymentInstrument: {
      paymentMode: record.paymentInstrument.paymentMode,
      card: {
        ...record.paymentInstrument.card,
        cardScheme: na(e.cardScheme),
        first4: token ? token.slice(0, 4) : 'NA',
        last4: token ? token.slice(-4) : 'NA',
        bank: na(e.bank),
        cardHashId: na(e.cardhashid),
        paymentMethod: na(e.paymentMethod),
      },
    },
    ...(t ? latestRefundOutcome(t) : {}),
    refundDetails: (merchantRefId === undefined
      ? record.refundDetails
      : record.refundDetails.filter((r) => r.merchantRefId === merchantRefId)
    ).map((r) => ({ ...r, arn: r.rrn })),
    userAccountDebited: t?.successAt != null,
  };
}

/**
 * After a refund, Zaakpay's /checkTxn answers with the latest refund's code (its sample: 230 with
 * txnStatus 3); a refund that failed gave its amount back and no longer speaks for the order.
 */
function latestRefundOutcome(t: Transaction): { responseCode: string; responseDescription: string } | Record<string, never> {
  const latest = t.refunds.filter((r) => r.status !== 'FAILED').at(-1);
  if (!latest) return {};
  const code = isFullRefund(latest, t) ? RefundResponse.fullRefundInitiated : RefundResponse.partialRefundInitiated;
  return { responseCode: code.code, responseDescription: code.description };
}

/** Entries written before updateDesired was kept: full when it refunded the whole amount. */
const isFullRefund = (r: RefundEntry, t: Transaction) =>
  r.updateDesired ? r.updateDesired === '14' : r.amountPaise === t.amountPaise;
