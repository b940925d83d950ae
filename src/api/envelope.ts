import { ApiErrors, type ApiErrorKind } from '../domain/api-errors';
import { legacyXml } from '../domain/legacy-xml';

/**
 * The contract has two envelopes: the status API's `{status, message: {code: number, text}}` and
 * everyone else's `{success, message: {code: string, text}}`, and Zaakpay's entries their own
 * answer shapes; the legacy XML APIs answer in XML. Each declared operation names the one its
 * refusals speak (operation.ts).
 */
export type JsonEnvelopeKind =
  'status' | 'success' | 'refund' | 'paylink' | 'mandate' | 'checkout' | 'checkTxn' | 'settlementReport' | 'split';
export type EnvelopeKind = JsonEnvelopeKind | 'legacyXml';

/**
 * Zaakpay's own APIs that the contract does not define answer a refusal of the request (a field,
 * the checksum, the merchant: 400 and 401 elsewhere) with HTTP 200 and the code in the body, as
 * Zaakpay does: its merchants' clients (axios, `fetch` checking `r.ok`) throw on any other status
 * before they read the code. Limits and outages (413, 415, 429, 503) keep their status lines.
 */
const CODED_WITH_200: readonly EnvelopeKind[] = ['checkout', 'checkTxn', 'refund', 'split', 'settlementReport', 'legacyXml'];

/** The status line of a refusal `http` answered in the envelope of `kind`. */
export function refusalStatus(kind: EnvelopeKind, http: number): number {
  return CODED_WITH_200.includes(kind) && (http === 400 || http === 401) ? 200 : http;
}

/** A failure in the envelope of `kind`; `http` is the status line (the payment link envelope repeats it). */
export function failureBody(kind: JsonEnvelopeKind, code: number | string, text: string, http = 200): object {
  if (kind === 'status') return { status: false, message: { code: Number(code), text } };
  // Zaakpay's Update/Refund answer, with nothing known of the request it could not read.
  if (kind === 'refund') {
    return {
      merchantIdentifier: null,
      orderDetail: null,
      responseCode: String(code),
      responseDescription: text,
      merchantRefId: null,
    };
  }
  // The mandate response shape, with nothing known of the request it could not read.
  if (kind === 'mandate') {
    return {
      orderDetail: null,
      responseCode: String(code),
      responseDescription: text,
      doRedirect: 'false',
      paymentInstrument: null,
      bankPostData: null,
      paymentMode: 'UPI_MANDATE',
    };
  }
  if (kind === 'checkout') return checkoutFailure(String(code), text);
  if (kind === 'checkTxn') return checkTxnFailure(String(code), text);
  if (kind === 'settlementReport') return settlementReportFailure(String(code), text);
  if (kind === 'split') return splitFailure(String(code), text);
  // The payment link envelope (design.md, Payment links): statusCode is the HTTP status, no entry was made.
  if (kind === 'paylink') return { success: false, statusCode: http, errorMessage: `${code}: ${text}`, data: [] };
  return { success: false, message: { code: String(code), text } };
}

export function errorBody(kind: EnvelopeKind, error: ApiErrorKind, detail?: string): RefusalAnswer {
  const e = ApiErrors[error];
  return refusalAnswer(kind, e.code, detail ? `${e.text}: ${detail}` : e.text, e.http);
}

/** A refusal as sent: a JSON envelope's object, or the legacy XML document (with its media type). */
export type RefusalAnswer = { type: 'json'; body: object } | { type: 'text/xml; charset=utf-8'; body: string };

/**
 * A failure in the envelope of `kind`, as sent. The legacy XML's carries no order (none was read)
 * and an empty checksum: nothing unauthenticated is signed.
 */
export function refusalAnswer(kind: EnvelopeKind, code: number | string, text: string, http = 200): RefusalAnswer {
  if (kind !== 'legacyXml') return { type: 'json', body: failureBody(kind, code, text, http) };
  return {
    type: 'text/xml; charset=utf-8',
    body: legacyXml({ orderid: '', responsecode: String(code), description: text }, null),
  };
}

/** Puts a refusal's answer on a Koa response. */
export function sendRefusal(ctx: { body: unknown; type: string }, answer: RefusalAnswer): void {
  ctx.body = answer.body;
  if (answer.type !== 'json') ctx.type = answer.type;
}

/** The checkout's JSON answer for a refusal: the 208 answer's shape, the orderDetail echoed once authenticated. */
export function checkoutFailure(code: string, text: string, echo: Record<string, unknown> | null = null) {
  return {
    responseCode: code,
    responseDescription: text,
    doRedirect: 'false',
    orderDetail: echo,
    paymentInstrument: null,
    paymentMode: null,
    bankPostData: null,
  };
}

/** Zaakpay's check status answer (`/checkTxn?v=5`) for a refusal: no order, or the unknown order's entry. */
export function checkTxnFailure(code: string, text: string, merchantIdentifier: string | null = null, orders: object[] = []) {
  return { success: false, merchantIdentifier, version: '5', orders, responseCode: code, responseDescription: text };
}

/** Zaakpay's Settlement API answer for a refusal: no lines. */
export function settlementReportFailure(code: string, text: string) {
  return { report: [], responsecode: code, responsedescription: text };
}

/** Zaakpay's Split Payment API answer for a refusal (orderId echoed once read). */
export function splitFailure(code: string, text: string, orderId: string | null = null) {
  return { status: 'FAILURE', errorCode: code, errorDescription: text, orderId };
}
