import { z } from 'zod';
import { exampleCustomCheckoutForm } from '../reference/examples';
import { MandateResponse } from '../../domain/mandate';
import { checkoutDataSchema, checkoutResponseSchema } from '../schemas/checkout';
import type { OperationReference } from '../operation';
import { mandateDataSchema, mandateResponseSchema, TRANSACT_U_VERSIONS } from '../schemas/mandates';
import { CHECKOUT_FLOW } from './checkout-openapi';

const codes = Object.values(MandateResponse)
  .map((c) => `${c.code} ${c.description}`)
  .join('; ');

/**
 * The entry of POST /transactU in the API reference, the mandate operation's (create, notify,
 * execute): the address also serves the custom checkout (v=8, checkout-entries.ts), documented here
 * too, as one address has one entry. The sandbox payer's revoke is the sandbox module's.
 */
export const transactUReference: OperationReference = {
  summary: 'v=8: the custom checkout; v=12 or 13: UPI AutoPay mandates (create, notify a debit, confirm a debit)',
  description: `Form fields \`data\` (JSON text) and \`checksum\` = HMAC-SHA256 of the exact \`data\` string with the secret key. **v=8, the custom checkout**: \`data\` fields ${JSON.stringify(
    Object.keys(checkoutDataSchema.shape),
  )} (orderDetail.amount in paise as a string; paymentInstrument.paymentMode UPIAPP, UPI, upiqr, card, netbanking or wallet in any case, or absent for every choice; paymentInstrument.netbanking.bankid a bank code, or the payer's VPA for UPI collect). A server asking for UPIAPP or upiqr (Accept without text/html) gets JSON 208 with bankPostData: the app links {androidIntentUrl, gpayIntentIosUrl, phonepeIntentIosUrl, paytmIntentIosUrl, mbkIntentIosUrl, txnid} or {link: base64 QR PNG, txnid}; the order is paid in the payer's UPI app (POST /sandbox/v1/qr/pay as the sandbox payer). ${CHECKOUT_FLOW} The return carries the V8 fields (see /api/paymentTransact/V8). A v=8 refusal is HTTP 200 with its code (101, 108, 109, 128, 180, 182) in the checkout's JSON shape; 400 and 401 below are v=12 and 13's. **v=12 and 13, mandates**: \`data\` fields: ${JSON.stringify(
    Object.keys(mandateDataSchema.shape),
  )} (orderDetail amount in paise as a string; billingAddress keys as the contract spells them, with spaces; txnDate with or without zero padding); fields it does not know, in the form or at any level of \`data\`, are ignored and never echoed. \`payerVpa\` is RSA-encrypted (OAEP SHA-1/SHA-256 or PKCS#1 v1.5) with the public key of \`encryptionKeyId\`, base64. Answers (HTTP 200, the mandate response shape): ${codes}. Refusals before the request is read: HTTP 400 2009 v missing or unsupported, 2001 data not a JSON object, 2002 a field invalid, 2005 a malformed form, 2015 unknown encryptionKeyId, 2016 payerVpa does not decrypt (one answer for every cause); HTTP 401 2010 no checksum, 2011 checksum does not match, 2012 unknown merchant. Notify: the parent must be an ACTIVE Adhoc mandate; executionDate at least 24 hours ahead, inside the mandate's dates, outside 10:00-13:00 and 17:00-21:30 IST, and the request itself outside them (1118). The debit is its own order (orderDetail.orderId), visible in the status API, ledger and webhooks; it runs at executionDate (1111, or 1112 after one attempt and 3 retries), or waits for action execute until 24 hours after it when autoExecute is false (else 1123; a confirmation inside a peak window is refused with 1118, confirm again after it). A revoked or expired mandate cancels its scheduled debits (1124). The mandate itself is read through the status API by its create orderId.`,
  query: z.object({ v: z.enum(TRANSACT_U_VERSIONS).describe('8: the custom checkout; 12 or 13: mandates') }),
  // The custom checkout: a mandate's payerVpa is encrypted with the merchant's own public key.
  example: exampleCustomCheckoutForm(),
  queryExample: { v: '8' },
  responses: {
    200: {
      description:
        'a mandate response code, or the checkout JSON 208, or a checkout refusal with its code (v=8: HTTP 200, as Zaakpay answers)',
      schema: z.union([mandateResponseSchema, checkoutResponseSchema]),
    },
    303: { description: 'v=8: the order is open, its hosted checkout page (Location /checkout/{token})' },
  },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: z.union([mandateResponseSchema, checkoutResponseSchema]),
  errorPages: true,
};
