import { hmacHex, keyValueText, quotedValuesText } from './checksum';
import { V7_RETURN_FIELDS, V8_RETURN_FIELDS } from './checkout';
import type { RealtimeTxn, TxnData } from './types';
import { standardWebhookSignature } from './webhooks';

/**
 * Helpers for a merchant's own tests: sign a webhook or a checkout return exactly as the gateway
 * does, to post to your handlers without a gateway. Import from `@gateway/merchant-sdk/testing`
 * (or `testing` in the package root); never use them to produce anything a real payer sees.
 */

/** A signed webhook call: the body and headers to send to your endpoint. */
export interface FakeWebhook {
  body: string;
  headers: Record<string, string>;
}

/** A successful real-time `txns` entry, every field filled as the gateway fills them (override any). */
export function fakeRealtimeTxn(overrides: Partial<RealtimeTxn> & { orderId: string; amount: string }): RealtimeTxn {
  return {
    pgTransId: `ZP${Date.now()}`,
    paymentMode: 'UPI',
    cardScheme: 'NA',
    productDescription: 'NA',
    product1Description: 'NA',
    product2Description: 'NA',
    product3Description: 'NA',
    product4Description: 'NA',
    cardToken: 'NA',
    responseCode: '100',
    bank: 'NA',
    bankid: 'NA',
    doRedirect: 'false',
    responseDescription: 'The transaction was completed successfully. ',
    cardId: 'NA',
    cardhashid: 'NA',
    paymentMethod: 'UPI',
    pgTransTime: '01/01/2026 10:00:00',
    txnDate: '2026-01-01 10:00:00.000',
    authCode: 'NA',
    bankRefNum: 'NA',
    ...overrides,
  };
}

/**
 * Signs `txnData` as the gateway does: the contract's checksum over the exact JSON text, in the form
 * (default) or JSON body, and, with a signing secret, the Standard Webhooks headers.
 */
export function signFakeWebhook(
  txnData: TxnData,
  options: { secretKey: string; signingSecret?: string; format?: 'form' | 'json'; id?: string; at?: Date; attempt?: number },
): FakeWebhook {
  const text = JSON.stringify(txnData);
  const checksum = hmacHex(options.secretKey, text);
  const json = options.format === 'json';
  const body = json ? JSON.stringify({ txnData: text, checksum }) : new URLSearchParams({ txnData: text, checksum }).toString();
  const id = options.id ?? `wh_fake_${Math.random().toString(36).slice(2)}`;
  const headers: Record<string, string> = {
    'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
    'x-webhook-id': id,
    'x-webhook-attempt': String(options.attempt ?? 1),
  };
  if (options.signingSecret) {
    const timestamp = Math.floor((options.at ?? new Date()).getTime() / 1000);
    const signature = standardWebhookSignature(options.signingSecret, id, timestamp, body).toString('base64');
    Object.assign(headers, { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` });
  }
  return { body, headers };
}

/**
 * A checkout return as the gateway posts it to your returnUrl: the V8 (default) or V7 fields, `NA`
 * where there is no data, signed `key=value&`; or the legacy four fields signed as quoted values.
 * Returns the urlencoded body.
 */
export function signFakeCheckoutReturn(
  secretKey: string,
  fields: Record<string, string> & { orderId: string; responseCode: string },
  kind: 'V8' | 'V7' | 'legacy' = 'V8',
): string {
  let pairs: [string, string][];
  let text: string;
  if (kind === 'legacy') {
    const names = ['amount', 'orderId', 'responseCode', 'responseDescription'].filter((k) => k !== 'amount' || fields.amount);
    pairs = names.map((k) => [k, fields[k] ?? '']);
    text = quotedValuesText(pairs);
  } else {
    pairs = (kind === 'V7' ? V7_RETURN_FIELDS : V8_RETURN_FIELDS).map((k) => [k, fields[k] ?? 'NA']);
    text = keyValueText(pairs);
  }
  return new URLSearchParams([...pairs, ['checksum', hmacHex(secretKey, text)]]).toString();
}
