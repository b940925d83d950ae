import { z } from 'zod';

/**
 * What the gateway posts to a merchant's webhook URL (DECISIONS.md, Webhooks), for the API
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

/** A non-real-time entry (domain/webhook-late.ts lateEntry): a reconciliation success in `txns`, an auto-refund in `refunds`. */
export const lateTxnSchema = z.object({
  amount: z.number().int().describe('paise'),
  orderid: text,
  txnDate: text.describe('yyyy-MM-dd HH:mm:ss.S, IST'),
});

export const txnDataSchema = z.object({
  merchantIdentifier: text,
  txns: z.array(z.union([realtimeTxnSchema, lateTxnSchema])).describe('real-time calls: one full entry; others: short entries'),
  refunds: z.array(lateTxnSchema).describe('auto-refunds (non-real-time calls only)'),
});

export const webhookBodySchema = z.object({
  txnData: text.describe('the JSON text of a TxnData object, exactly as signed'),
  checksum: text.describe('HMAC-SHA256 (lowercase hex) of the exact txnData text with the secret key'),
});
