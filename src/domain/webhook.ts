import { hmacSha256Hex } from './checksum';
import { paymentModeText } from './instrument';
import { formatIstDateTimeMillis, formatIstUsDateTime } from './ist-time';
import { paiseToWire } from './money';
import { publishedOutcome } from './response-codes';
import type { Transaction } from './transaction';

const NA = 'NA';
const PAYMENT_METHOD: Record<Transaction['instrument']['kind'], string> = {
  UPI: 'UPI',
  UPI_QR: 'UPI',
  CARD: 'CARD',
  NETBANKING: 'NB',
  PAYMENT_LINK: NA,
  CHECKOUT: NA,
  UPI_MANDATE: 'UPI',
};
const orNA = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? NA : v);

/**
 * The contract's real-time webhook entry (`txns` element) for a transaction that became successful
 * or declined: every field a string, `NA` where there is no data, authCode and bankRefNum only on
 * successful entries, amounts in paise, times in IST.
 */
export function realtimeEntry(t: Transaction): Record<string, string> {
  const card = t.instrument.kind === 'CARD' ? t.instrument : null;
  const bank = 'bankName' in t.instrument ? t.instrument.bankName : null;
  const at = t.completedAt ?? t.updatedAt;
  const outcome = publishedOutcome(t);
  const entry: Record<string, string> = {
    amount: paiseToWire(t.amountPaise),
    pgTransId: t.txnId,
    orderId: t.orderId,
    paymentMode: paymentModeText(t.instrument),
    cardScheme: orNA(card?.brand),
    productDescription: orNA(t.productDescription),
    product1Description: orNA(t.product1Description),
    product2Description: orNA(t.product2Description),
    product3Description: orNA(t.product3Description),
    product4Description: orNA(t.product4Description),
    cardToken: orNA(card?.cardToken),
    responseCode: outcome.responseCode,
    bank: orNA(bank),
    bankid: t.instrument.kind === 'NETBANKING' ? t.instrument.bankCode : NA,
    doRedirect: 'false',
    responseDescription: outcome.responseDescription,
    cardId: orNA(card?.cardId),
    cardhashid: orNA(card?.cardId),
    paymentMethod: PAYMENT_METHOD[t.instrument.kind],
    pgTransTime: formatIstUsDateTime(at),
    txnDate: formatIstDateTimeMillis(at),
  };
  if (t.status !== 'Failure') {
    entry.authCode = orNA(t.authCode);
    entry.bankRefNum = orNA(t.bankRefNum);
  }
  return entry;
}

export type WebhookFormat = 'form' | 'json';

export interface WebhookPayload {
  /** The exact `txnData` text the checksum covers. */
  txnData: string;
  checksum: string;
  contentType: string;
  /** The request body; each attempt re-signs it with the key in force then (signedAttemptBody). */
  body: string;
}

/** `txnData` (an object, or its exact text) and its HMAC-SHA256, in the merchant's body form. */
export function webhookPayload(
  secretKey: string,
  format: WebhookFormat,
  txnData: { merchantIdentifier: string; txns: object[]; refunds: object[] } | string,
): WebhookPayload {
  const text = typeof txnData === 'string' ? txnData : JSON.stringify(txnData);
  const checksum = hmacSha256Hex(secretKey, text);
  return format === 'json'
    ? { txnData: text, checksum, contentType: 'application/json', body: JSON.stringify({ txnData: text, checksum }) }
    : {
        txnData: text,
        checksum,
        contentType: 'application/x-www-form-urlencoded',
        body: new URLSearchParams({ txnData: text, checksum }).toString(),
      };
}

/**
 * The body of one attempt: the stored call's `txnData`, byte for byte, with the contract's checksum
 * computed now with `secretKey` (the key in force at this attempt). A delivery stored before a
 * secret-key rotation, retried or replayed after it, then still verifies with the merchant's key.
 * `storedBody` is a body webhookPayload built (form or JSON, as `contentType` says).
 */
export function signedAttemptBody(storedBody: string, contentType: string, secretKey: string): string {
  const txnData =
    contentType === 'application/json'
      ? (JSON.parse(storedBody) as { txnData: string }).txnData
      : new URLSearchParams(storedBody).get('txnData');
  if (typeof txnData !== 'string') throw new Error('stored webhook body carries no txnData');
  return webhookPayload(secretKey, contentType === 'application/json' ? 'json' : 'form', txnData).body;
}

/** Success: a 2xx whose body, trimmed, is SUCCESS. */
export const isWebhookAcknowledged = (status: number, body: string) => status >= 200 && status < 300 && body.trim() === 'SUCCESS';
