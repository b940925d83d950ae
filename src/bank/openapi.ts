import { z } from 'zod';
import {
  BANK_PROTOCOL_VERSION,
  BANK_RESPONSE_CODES,
  bankCallbackResponseSchema,
  bankCallbackSchema,
  bankErrorSchema,
  debitRequestSchema,
  debitResponseSchema,
  GATEWAY_CALLBACK_PATH,
  mandateRequestSchema,
  mandateResponseSchema,
  notificationRequestSchema,
  notificationResponseSchema,
  paymentRequestSchema,
  paymentResponseSchema,
  PAYOUT_RESPONSE_CODES,
  payoutRequestSchema,
  payoutResponseSchema,
  refundRequestSchema,
  refundResponseSchema,
  settlementFileSchema,
} from './protocol';
import { BANK_SIGNATURE_WINDOW_SECONDS } from './signing';

/**
 * The acquirer protocol's own OpenAPI 3.1 document, generated from the schemas in protocol.ts: the
 * bank's endpoints under `paths`, and the callbacks the bank sends the gateway under `webhooks`.
 * The gateway serves it at `GET /bank/openapi.json` (beside its own `/openapi.json`), the bank
 * simulator at its own `GET /openapi.json`.
 */
const json = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const SIGNING = `Every request and every callback carries \`X-Bank-Timestamp\` (Unix seconds) and \`X-Bank-Signature\`: the lowercase hex HMAC-SHA256 of \`<timestamp>.<raw body>\` (an empty body for GET) with the secret the gateway and the bank share. A receiver refuses a signature that does not match (compared in constant time) or a timestamp more than ${BANK_SIGNATURE_WINDOW_SECONDS / 60} minutes from its clock, with 401. The bank's answers to the gateway's requests carry the same two headers, the signature over \`<timestamp>.<the request's X-Bank-Signature>.<raw answer body>\`; the gateway reads no answer (of any status) without them, and retries the call.`;

const IDEMPOTENCY =
  'The id the gateway chooses (txnId, refundId, debitId, notificationId, mandateId) is the idempotency key: the bank answers a repeat with the first answer and commits nothing new; the same id with other contents is 409 IDEMPOTENCY_CONFLICT. The gateway abandons a call after 10 s and retries it on a network error, a timeout or a 5xx, so a call the bank committed but whose answer was lost is repeated, never paid twice.';

const errors = (codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      code,
      {
        description: ERROR_TEXT[code] ?? 'error',
        content: { 'application/json': { schema: json(bankErrorSchema, 'output') } },
      },
    ]),
  );
const ERROR_TEXT: Record<number, string> = {
  400: 'BAD_REQUEST: the body does not match the schema',
  401: 'BAD_SIGNATURE: missing, wrong or stale signature',
  404: 'NOT_FOUND: unknown id',
  409: 'IDEMPOTENCY_CONFLICT: the id was used with other contents',
  503: 'UNAVAILABLE: retry later (the gateway retries)',
};

function op(o: {
  summary: string;
  description: string;
  request?: z.ZodType;
  response: z.ZodType;
  params?: string[];
  errorCodes: number[];
  /** A request body as the gateway sends it, checked against `request` when the document is built. */
  example?: unknown;
}) {
  if (o.request) o.request.parse(o.example);
  return {
    summary: o.summary,
    description: o.description,
    security: [{ bankSignature: [] }],
    ...(o.params
      ? {
          parameters: o.params.map((name) => ({
            name,
            in: 'path',
            required: true,
            schema: { type: 'string' },
            example: EXAMPLE_IDS[name],
          })),
        }
      : {}),
    ...(o.request
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: json(o.request, 'input'), example: o.example } },
          },
        }
      : {}),
    responses: {
      200: {
        description: 'the answer (a repeat gets the first one)',
        content: { 'application/json': { schema: json(o.response, 'output') } },
      },
      ...errors(o.errorCodes),
    },
  };
}

/** The ids of the examples: one payment of 100 rupees, its refund, a mandate and its first debit. */
const EXAMPLE_IDS: Record<string, string> = {
  txnId: 'T2611230001',
  refundId: 'T2611230001:refund-1001-a',
  mandateId: 'b19e8f103bce406cbd3476431b6b7973:mandate-1001',
  debitId: 'T2611230002',
  payoutId: 'settlement:b19e8f103bce406cbd3476431b6b7973:2026-11-24',
  date: '2026-11-24',
};
const EXAMPLE_MERCHANT_ID = 'b19e8f103bce406cbd3476431b6b7973';
const EXAMPLE_CALLBACK_URL = 'https://gateway.example/bank/v1/callbacks';

const codeTable = Object.entries(BANK_RESPONSE_CODES)
  .map(([code, text]) => `| ${code} | ${text} |`)
  .join('\n');

export function buildBankOpenApiDocument(serverUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Acquirer protocol of the merchant gateway',
      version: BANK_PROTOCOL_VERSION,
      description: `How the gateway talks to an acquiring bank or UPI switch (BANK_CONNECTOR=http), and how the bank answers later through callbacks.\n\n${SIGNING}\n\n${IDEMPOTENCY}\n\nA payment answers APPROVED or DECLINED (final), PENDING (the final answer comes by callback, or the gateway asks with a status inquiry once BANK_TIMEOUT_SECONDS pass) or REDIRECT (card and net banking: the payer's browser goes to \`redirect.url\` with \`redirect.fields\`, then back to \`returnUrl\`; the final answer comes by callback).\n\nResponse codes:\n\n| code | meaning |\n|---|---|\n${codeTable}`,
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bankSignature: { type: 'apiKey', in: 'header', name: 'X-Bank-Signature', description: SIGNING },
      },
    },
    paths: {
      ...paymentAndRefundPaths(),
      ...mandatePaths(),
      ...payoutPaths(),
    },
    webhooks: {
      bankCallback: { post: callbackOperation() },
    },
  };
}

/** Payments and refunds, and their status inquiries. */
function paymentAndRefundPaths() {
  return {
    '/v1/payments': {
      post: op({
        summary: 'Request a payment',
        example: {
          txnId: EXAMPLE_IDS.txnId,
          merchantIdentifier: EXAMPLE_MERCHANT_ID,
          orderId: 'order-1001',
          amountPaise: 10000,
          instrument: { type: 'UPI_COLLECT', vpa: 'success@sandbox' },
          callbackUrl: EXAMPLE_CALLBACK_URL,
        },
        description:
          'UPI collect, UPI intent or QR (the payer known), card or net banking (answered REDIRECT). Idempotent by txnId.',
        request: paymentRequestSchema,
        response: paymentResponseSchema,
        errorCodes: [400, 401, 409, 503],
      }),
    },
    '/v1/payments/{txnId}': {
      get: op({
        summary: 'Status inquiry of a payment',
        description: 'What the bank holds now: the gateway asks once when a payment stays silent past BANK_TIMEOUT_SECONDS.',
        response: paymentResponseSchema,
        params: ['txnId'],
        errorCodes: [401, 404, 503],
      }),
    },
    '/v1/refunds': {
      post: op({
        summary: 'Refund part or all of an approved payment',
        example: {
          refundId: EXAMPLE_IDS.refundId,
          txnId: EXAMPLE_IDS.txnId,
          amountPaise: 2500,
          reason: 'Damaged item',
          callbackUrl: EXAMPLE_CALLBACK_URL,
        },
        description: 'Idempotent by refundId. PENDING refunds settle later: the gateway reads GET /v1/refunds/{refundId}.',
        request: refundRequestSchema,
        response: refundResponseSchema,
        errorCodes: [400, 401, 409, 503],
      }),
    },
    '/v1/refunds/{refundId}': {
      get: op({
        summary: 'Status of a refund',
        description:
          'What the bank holds now. 404: the bank does not know the payout; the gateway sends the same request again (same payoutId, amount and account).',
        response: refundResponseSchema,
        params: ['refundId'],
        errorCodes: [401, 404, 503],
      }),
    },
  };
}

/** Mandates, their pre-debit notifications and their debits. */
function mandatePaths() {
  return {
    '/v1/mandates': {
      post: op({
        summary: 'Register a UPI AutoPay mandate (the payer approves it in their app)',
        example: {
          mandateId: EXAMPLE_IDS.mandateId,
          merchantIdentifier: EXAMPLE_MERCHANT_ID,
          payerVpa: 'success@sandbox',
          callbackUrl: EXAMPLE_CALLBACK_URL,
        },
        description: 'Idempotent by mandateId.',
        request: mandateRequestSchema,
        response: mandateResponseSchema,
        errorCodes: [400, 401, 409, 503],
      }),
    },
    '/v1/mandates/{mandateId}': {
      get: op({
        summary: 'Status of a mandate',
        description:
          'What the bank holds now. 404: the bank does not know the payout; the gateway sends the same request again (same payoutId, amount and account).',
        response: mandateResponseSchema,
        params: ['mandateId'],
        errorCodes: [401, 404],
      }),
    },
    '/v1/mandates/{mandateId}/notifications': {
      post: op({
        summary: 'Pre-debit notification of a mandate debit',
        example: { notificationId: EXAMPLE_IDS.debitId, amountPaise: 25000, executeAt: '2026-11-25T08:00:00+05:30' },
        description: "The payer's bank may refuse it (the gateway then answers the merchant 1110). Idempotent by notificationId.",
        request: notificationRequestSchema,
        response: notificationResponseSchema,
        params: ['mandateId'],
        errorCodes: [400, 401, 404, 409, 503],
      }),
    },
    '/v1/mandates/{mandateId}/debits': {
      post: op({
        summary: 'Debit under a mandate',
        example: {
          debitId: EXAMPLE_IDS.debitId,
          merchantIdentifier: EXAMPLE_MERCHANT_ID,
          amountPaise: 25000,
          callbackUrl: EXAMPLE_CALLBACK_URL,
        },
        description: 'One attempt of one debit; a retry after a decline is a new debitId. Idempotent by debitId.',
        request: debitRequestSchema,
        response: debitResponseSchema,
        params: ['mandateId'],
        errorCodes: [400, 401, 404, 409, 503],
      }),
    },
    '/v1/mandates/{mandateId}/debits/{debitId}': {
      get: op({
        summary: 'Status of a debit',
        description:
          'What the bank holds now. 404: the bank does not know the payout; the gateway sends the same request again (same payoutId, amount and account).',
        response: debitResponseSchema,
        params: ['mandateId', 'debitId'],
        errorCodes: [401, 404, 503],
      }),
    },
  };
}

/** Payouts of settlements, and the settlement file of a date. */
function payoutPaths() {
  return {
    '/v1/payouts': {
      post: op({
        summary: "Pay a merchant's settlement to its bank account",
        example: {
          payoutId: EXAMPLE_IDS.payoutId,
          merchantIdentifier: EXAMPLE_MERCHANT_ID,
          amountPaise: 987_654,
          ifsc: 'HDFC0001234',
          accountNumber: '50100012345678',
        },
        description: `Idempotent by payoutId (the gateway's settlement id): a settlement retried after a crash is paid once, and every request of one payoutId carries the same amount and account. amountPaise is the merchant's net for the day: any size up to Number.MAX_SAFE_INTEGER paise, never bounded by a payment's maximum. PAID carries the UTR; PENDING is asked again with GET /v1/payouts/{payoutId}; REFUSED is final. A 4xx other than 408, 409 and 429 means the bank did not act on the request: the gateway carries the net into the merchant's next settlement. A 409 (the payoutId known with other contents) makes the gateway ask GET /v1/payouts/{payoutId} and take that answer. Codes: ${Object.entries(
          PAYOUT_RESPONSE_CODES,
        )
          .map(([c, d]) => `${c} ${d}`)
          .join('; ')}.`,
        request: payoutRequestSchema,
        response: payoutResponseSchema,
        errorCodes: [400, 401, 409, 503],
      }),
    },
    '/v1/payouts/{payoutId}': {
      get: op({
        summary: 'Status of a payout',
        description:
          'What the bank holds now. 404: the bank does not know the payout; the gateway sends the same request again (same payoutId, amount and account).',
        response: payoutResponseSchema,
        params: ['payoutId'],
        errorCodes: [401, 404, 503],
      }),
    },
    '/v1/settlement-files/{date}': {
      get: op({
        summary: "The bank's settlement file of an IST date",
        description:
          'Every payout the bank paid on that date (yyyy-MM-dd, IST), with its UTR and amount; the gateway reconciles its settlements against it. A date without payouts has an empty list.',
        response: settlementFileSchema,
        params: ['date'],
        errorCodes: [401, 503],
      }),
    },
  };
}

/** `POST /bank/v1/callbacks` on the gateway: documented in both the gateway's and the bank protocol's document. */
export function callbackOperation() {
  const example = {
    type: 'payment',
    eventId: 'evt-88127',
    txnId: EXAMPLE_IDS.txnId,
    merchantIdentifier: EXAMPLE_MERCHANT_ID,
    orderId: 'order-1001',
    amountPaise: 10000,
    status: 'APPROVED',
    responseCode: '00',
    responseDescription: 'Approved',
    bankRefNum: 'BRN88127',
    authCode: 'A1B2C3',
  };
  bankCallbackSchema.parse(example);
  return {
    summary: 'A bank reports a final answer (gateway endpoint)',
    description: `Sent by the bank to \`${GATEWAY_CALLBACK_PATH}\` on the gateway (the request's callbackUrl) with the final answer of a payment, refund, mandate or debit. ${SIGNING} The gateway checks the callback against its own record (the txnId must be one it sent to this bank, for that merchant and that amount): a mismatch is refused with 409 and logged. A duplicate or a late callback changes nothing already final (answered 200, \`unchanged\`); an approval for a payment that failed without a bank decline (the gateway's reasons 1023 no answer, 1024 expired, published as 183, and 1025 a refused request, published as 401; 102 a checkout cancelled after its UPI intent was handed out) makes it a delayed success. A callback for a payment still being decided (the gateway is recording its own verdict, or has not started its workflow) is answered 503 with code 2052 and changes nothing. A bank retries a callback until it gets 2xx, and stops on 4xx.`,
    security: [{ bankSignature: [] }],
    requestBody: { required: true, content: { 'application/json': { schema: json(bankCallbackSchema, 'input'), example } } },
    responses: {
      200: { description: 'received', content: { 'application/json': { schema: json(bankCallbackResponseSchema, 'output') } } },
      400: { description: 'malformed body (validation failed)' },
      401: { description: 'missing, wrong or stale signature' },
      404: { description: 'unknown txnId, refundId, mandate or debit' },
      409: { description: 'the callback contradicts the gateway: another amount, merchant or payment' },
      413: { description: 'body too large' },
      415: { description: 'not application/json' },
      503: {
        description: 'retry: the gateway cannot reach its store or Temporal (2050), or the payment is being decided (2052)',
      },
    },
  };
}
