import { z } from 'zod';
import { MAX_AMOUNT_PAISE } from '../domain/money';

/**
 * The acquirer protocol v1 (design.md, Environments and the bank protocol): what the gateway sends a bank
 * and what a bank sends back, as zod schemas. The HTTP connector, the callbacks route, the bank
 * simulator and the protocol's OpenAPI document (`GET /bank/openapi.json`) are all built from these,
 * so none of them can drift from the others.
 *
 * Both directions are signed (signing.ts). Every request that changes money carries an id the
 * gateway chooses (txnId, refundId, debitId): the bank answers a repeat of it with the first answer,
 * and refuses the same id with other contents (409), so a retry after the bank committed never pays,
 * refunds or debits twice.
 */
export const BANK_PROTOCOL_VERSION = 'v1';

/** Ids the gateway chooses: letters, digits and `. _ - : /` (a txnId, `<txnId>:<merchantRefId>`...). */
export const bankIdField = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:\-/]{0,159}$/, 'must be 1-160 characters: letters, digits and . _ : - /');
const amountPaise = z.number().int().min(1).max(MAX_AMOUNT_PAISE).describe('integer paise');
/**
 * A payout or settlement-file sum: a merchant's net for a day, never bounded by the per-payment
 * maximum, only by what a JSON number carries exactly (Number.MAX_SAFE_INTEGER paise).
 */
const payoutAmountPaise = z
  .number()
  .int()
  .min(1)
  .max(Number.MAX_SAFE_INTEGER)
  .describe(
    "integer paise: the merchant's net for the day, any size up to 9007199254740991 (Number.MAX_SAFE_INTEGER), never bounded by a payment's maximum",
  );
const url = z.url({ protocol: /^https?$/ });

/**
 * The bank's response codes (ISO 8583 style). `BANK_RESPONSE` maps each to what the gateway reports
 * (src/bank/http-connector.ts): approved 100, below the minimum 1021, any other decline 1022 (the gateway's reason codes: merchants see Zaakpay's, src/domain/response-codes.ts).
 */
export const BANK_RESPONSE_CODES = {
  '00': 'Approved',
  '05': 'Do not honour: declined by the issuer',
  '13': 'Invalid amount: below the minimum transaction limit',
  '09': 'Request in progress',
  '30': 'Declined: the payer did not complete authentication',
} as const;
export type BankResponseCode = keyof typeof BANK_RESPONSE_CODES;
const responseCode = z.enum(Object.keys(BANK_RESPONSE_CODES) as [BankResponseCode, ...BankResponseCode[]]);

/** How the payer pays, as the bank needs it. No card number ever: cards are entered on the bank's page. */
export const bankInstrumentSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('UPI_COLLECT'),
    vpa: z.string().min(3).max(255).describe("the payer's VPA: the bank sends the payer a collect request"),
  }),
  z.strictObject({
    type: z.literal('UPI_INTENT'),
    vpa: z.string().min(3).max(255).describe('the VPA that paid the intent or QR'),
    qr: z.boolean().describe('true when the payer scanned the dynamic QR'),
  }),
  z.strictObject({
    type: z.literal('CARD'),
    cardToken: z
      .string()
      .regex(/^\d{6}X+\d{4}$/)
      .optional()
      .describe(
        'the masked card the payer declared in the sandbox (test cards only); absent when the payer types it on the bank page',
      ),
    brand: z.string().max(20).optional(),
  }),
  z.strictObject({
    type: z.literal('NETBANKING'),
    bankCode: z.string().regex(/^[A-Z0-9]{2,11}$/),
  }),
]);
export type BankInstrument = z.infer<typeof bankInstrumentSchema>;

export const bankRedirectSchema = z.strictObject({
  url: url.describe("the bank's page the payer's browser must go to"),
  method: z.enum(['GET', 'POST']),
  fields: z.record(z.string(), z.string()).describe('form fields to send along (POST) or add to the query (GET)'),
});
export type BankRedirect = z.infer<typeof bankRedirectSchema>;

// ---------- gateway -> bank ----------

export const paymentRequestSchema = z.strictObject({
  txnId: bankIdField.describe('the idempotency key: a repeat gets the first answer'),
  merchantIdentifier: z.string().min(1).max(64),
  orderId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("the merchant's order id: the bank echoes it in the payment's callback (the gateway finds the order by it)"),
  amountPaise,
  instrument: bankInstrumentSchema,
  callbackUrl: url.describe('where the bank posts the final answer when it is not in this response'),
  returnUrl: url
    .optional()
    .describe("REDIRECT only: where the bank's page sends the payer's browser back; without one the payer is not at a browser"),
});
export type BankPaymentRequestBody = z.infer<typeof paymentRequestSchema>;

const paymentStatus = z.enum(['APPROVED', 'DECLINED', 'PENDING', 'REDIRECT']);
export const paymentResponseSchema = z.strictObject({
  txnId: bankIdField,
  amountPaise,
  status: paymentStatus.describe('APPROVED and DECLINED are final; PENDING and REDIRECT end with a callback'),
  responseCode,
  responseDescription: z.string(),
  bankRefNum: z.string().nullable(),
  authCode: z.string().nullable(),
  redirect: bankRedirectSchema.optional().describe('present when status is REDIRECT'),
  card: z
    .strictObject({ cardToken: z.string(), brand: z.string(), cardType: z.enum(['CREDIT', 'DEBIT']), bankName: z.string() })
    .optional()
    .describe('the masked card the payer used on the bank page, once known'),
});
export type BankPaymentResponse = z.infer<typeof paymentResponseSchema>;

export const refundRequestSchema = z.strictObject({
  refundId: bankIdField.describe('the idempotency key: a repeat gets the first answer'),
  txnId: bankIdField,
  amountPaise,
  reason: z.string().min(1).max(100),
  callbackUrl: url,
});
export type BankRefundRequestBody = z.infer<typeof refundRequestSchema>;

export const refundResponseSchema = z.strictObject({
  refundId: bankIdField,
  txnId: bankIdField,
  amountPaise,
  status: z.enum(['APPROVED', 'DECLINED', 'PENDING']),
  responseCode,
  responseDescription: z.string(),
  rrn: z.string().nullable(),
});
export type BankRefundResponse = z.infer<typeof refundResponseSchema>;

export const mandateRequestSchema = z.strictObject({
  mandateId: bankIdField.describe("the gateway's id of the mandate (`<merchantIdentifier>:<orderId>`), the idempotency key"),
  merchantIdentifier: z.string().min(1).max(64),
  payerVpa: z.string().min(3).max(255),
  callbackUrl: url,
});
export type BankMandateRequestBody = z.infer<typeof mandateRequestSchema>;

export const mandateResponseSchema = z.strictObject({
  mandateId: bankIdField,
  status: z.enum(['APPROVED', 'DECLINED', 'PENDING']),
  responseCode,
  responseDescription: z.string(),
});
export type BankMandateResponse = z.infer<typeof mandateResponseSchema>;

export const notificationRequestSchema = z.strictObject({
  notificationId: bankIdField.describe("the debit's txnId: the idempotency key"),
  amountPaise,
  executeAt: z.iso.datetime({ offset: true }).describe('when the debit will run'),
});
export type BankNotificationRequestBody = z.infer<typeof notificationRequestSchema>;

export const notificationResponseSchema = z.strictObject({
  notificationId: bankIdField,
  mandateId: bankIdField,
  status: z.enum(['ACCEPTED', 'REFUSED']),
});
export type BankNotificationResponse = z.infer<typeof notificationResponseSchema>;

export const debitRequestSchema = z.strictObject({
  debitId: bankIdField.describe('one attempt of one debit (its txnId, `R<n>` appended for a retry): the idempotency key'),
  merchantIdentifier: z.string().min(1).max(64),
  amountPaise,
  callbackUrl: url,
});
export type BankDebitRequestBody = z.infer<typeof debitRequestSchema>;

export const debitResponseSchema = z.strictObject({
  debitId: bankIdField,
  mandateId: bankIdField,
  amountPaise,
  status: z.enum(['APPROVED', 'DECLINED', 'PENDING']),
  responseCode,
  responseDescription: z.string(),
  bankRefNum: z.string().nullable(),
  authCode: z.string().nullable(),
});
export type BankDebitResponse = z.infer<typeof debitResponseSchema>;

export const payoutRequestSchema = z.strictObject({
  payoutId: bankIdField.describe("the gateway's settlement id: the idempotency key, a repeat gets the first answer"),
  merchantIdentifier: z.string().min(1).max(64),
  amountPaise: payoutAmountPaise,
  ifsc: z.string().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'an IFSC: 4 letters, 0, 6 letters or digits'),
  accountNumber: z.string().regex(/^\d{6,18}$/, '6-18 digits'),
});
export type BankPayoutRequestBody = z.infer<typeof payoutRequestSchema>;

/** Payout response codes: 00 paid, 09 in progress, 52 account invalid, 91 the beneficiary bank is down. */
export const PAYOUT_RESPONSE_CODES = {
  '00': 'Paid',
  '09': 'Payout in progress',
  '52': 'Refused: the beneficiary account is invalid or closed',
  '91': 'Refused: the beneficiary bank is unavailable',
} as const;

/**
 * The answer to a payout request and to its inquiry, read as the settlement file is: leniently
 * about fields the gateway does not use (a bank adding one is no garbled answer), strictly about
 * the ones it does. The signature still covers the answer's exact bytes, verified before parsing.
 */
export const payoutResponseSchema = z.object({
  payoutId: bankIdField,
  amountPaise: payoutAmountPaise,
  status: z.enum(['PAID', 'REFUSED', 'PENDING']).describe('PAID and REFUSED are final; PENDING: ask again (GET)'),
  utr: z.string().max(22).nullable().describe("the bank's unique transaction reference, when PAID"),
  responseCode: z.enum(Object.keys(PAYOUT_RESPONSE_CODES) as [keyof typeof PAYOUT_RESPONSE_CODES]),
  responseDescription: z.string(),
});
export type BankPayoutResponse = z.infer<typeof payoutResponseSchema>;

/**
 * Read leniently about fields the gateway does not use (a bank adding one breaks nothing), strictly
 * about the ones it does.
 */
export const settlementFileSchema = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe('the payout date, IST (yyyy-MM-dd)'),
  payouts: z.array(
    z.object({
      payoutId: bankIdField,
      merchantIdentifier: z.string().min(1).max(64),
      amountPaise: payoutAmountPaise,
      utr: z.string().max(22),
    }),
  ),
});
export type BankSettlementFile = z.infer<typeof settlementFileSchema>;

export const bankErrorSchema = z.strictObject({
  error: z.enum(['BAD_REQUEST', 'BAD_SIGNATURE', 'NOT_FOUND', 'IDEMPOTENCY_CONFLICT', 'UNAVAILABLE']),
  message: z.string(),
});
export type BankError = z.infer<typeof bankErrorSchema>;

// ---------- bank -> gateway: POST /bank/v1/callbacks ----------

const final = z.enum(['APPROVED', 'DECLINED']);
const eventId = z.string().min(1).max(100).describe("the bank's id of this notification; a repeat carries the same id");

export const bankCallbackSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('payment'),
    eventId,
    txnId: bankIdField,
    merchantIdentifier: z.string().min(1).max(64),
    orderId: z.string().min(1).max(64).optional().describe("the request's orderId, echoed"),
    amountPaise,
    status: final,
    responseCode,
    responseDescription: z.string().max(255),
    bankRefNum: z.string().max(64).nullable(),
    authCode: z.string().max(64).nullable(),
    card: paymentResponseSchema.shape.card,
  }),
  z.strictObject({
    type: z.literal('refund'),
    eventId,
    refundId: bankIdField,
    txnId: bankIdField,
    amountPaise,
    status: final,
    rrn: z.string().max(64).nullable(),
  }),
  z.strictObject({ type: z.literal('mandate'), eventId, mandateId: bankIdField, status: final }),
  z.strictObject({
    type: z.literal('debit'),
    eventId,
    mandateId: bankIdField,
    debitId: bankIdField,
    amountPaise,
    status: final,
    bankRefNum: z.string().max(64).nullable(),
  }),
]);
export type BankCallback = z.infer<typeof bankCallbackSchema>;

export const bankCallbackResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    result: z
      .enum(['delivered', 'unchanged', 'delayedSuccess', 'acknowledged'])
      .describe(
        'delivered: taken by the workflow waiting for it; unchanged: the answer was already final (a duplicate or late callback); delayedSuccess: a payment that failed without a bank decline (no answer, expired, refused request, cancelled checkout) becomes a delayed success; acknowledged: verified and noted (refunds, mandates and debits are settled by their own calls)',
      ),
  }),
});
export type BankCallbackResult = z.infer<typeof bankCallbackResponseSchema>['data']['result'];

/** The protocol's paths on the bank, with the path parameters the connector fills in. */
export const BankPaths = {
  payments: '/v1/payments',
  payment: (txnId: string) => `/v1/payments/${encodeURIComponent(txnId)}`,
  refunds: '/v1/refunds',
  refund: (refundId: string) => `/v1/refunds/${encodeURIComponent(refundId)}`,
  mandates: '/v1/mandates',
  mandate: (mandateId: string) => `/v1/mandates/${encodeURIComponent(mandateId)}`,
  notifications: (mandateId: string) => `/v1/mandates/${encodeURIComponent(mandateId)}/notifications`,
  debits: (mandateId: string) => `/v1/mandates/${encodeURIComponent(mandateId)}/debits`,
  debit: (mandateId: string, debitId: string) =>
    `/v1/mandates/${encodeURIComponent(mandateId)}/debits/${encodeURIComponent(debitId)}`,
  payouts: '/v1/payouts',
  payout: (payoutId: string) => `/v1/payouts/${encodeURIComponent(payoutId)}`,
  settlementFile: (date: string) => `/v1/settlement-files/${encodeURIComponent(date)}`,
} as const;

/** The gateway's side: where banks post callbacks, and where their pages send payers back. */
export const GATEWAY_CALLBACK_PATH = '/bank/v1/callbacks';
/** Where a bank's page sends the payer back: the order by its key, the txnId as the payer's proof. */
export const gatewayReturnPath = (merchantIdentifier: string, orderId: string, txnId: string) =>
  `/bank/v1/return/${encodeURIComponent(merchantIdentifier)}/${encodeURIComponent(orderId)}/${encodeURIComponent(txnId)}`;

/** The mandate's id at the bank: the gateway's mandate, named by its merchant and the create request's orderId. */
export const bankMandateId = (merchantIdentifier: string, orderId: string) => `${merchantIdentifier}:${orderId}`;
