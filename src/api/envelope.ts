import type { Context } from 'koa';
import { ApiErrors, type ApiErrorKind } from '../domain/api-errors';

/**
 * The contract has two envelopes: the status API's `{status, message: {code: number, text}}` and
 * everyone else's `{success, message: {code: string, text}}`. Chosen by path, so that errors raised
 * before any route matched (a wrong method, say) still speak the endpoint's envelope.
 */
export type EnvelopeKind =
  'status' | 'success' | 'refund' | 'paylink' | 'mandate' | 'checkout' | 'checkTxn' | 'settlementReport' | 'split';

/** Zaakpay's checkout entries (and `/transactU?v=8`): their JSON answer's shape. */
const CHECKOUT_PATHS = new Set(['/api/paymentTransact/V8', '/api/paymentTransact/V7', '/transact']);

const STATUS_ENVELOPE_PATHS = new Set(['/api/payments/v1/status']);

/**
 * APIs whose contract fixes their own codes: the ledger answers every unexpected failure with 1036
 * (never a 500), the bulk API every invalid request with 100 "Validation Failed".
 */
// The ledger's field codes (1026-1031) are chosen by its route, which knows which field failed.
const FAMILY_ERRORS: Record<string, Partial<Record<ApiErrorKind, ApiErrorKind>>> = {
  '/api/v1/ledger': {
    internal: 'ledgerGenericFailure',
    dependencyUnavailable: 'ledgerGenericFailure',
    apiKeyMissing: 'ledgerApiKeyMissing',
    apiKeyInvalid: 'ledgerApiKeyInvalid',
  },
  '/api/v1/fetchtxn': {
    validationFailed: 'bulkValidationFailed',
    malformedJson: 'bulkValidationFailed',
    malformedBody: 'bulkValidationFailed',
  },
};

/** The error the endpoint at `path` reports for `kind`, and whether the detail stays out of its text. */
export function familyError(rawPath: string, kind: ApiErrorKind): { kind: ApiErrorKind; fixedText: boolean } {
  const mapped = FAMILY_ERRORS[rawPath.replace(/\/+$/, '')]?.[kind];
  return mapped ? { kind: mapped, fixedText: mapped === 'bulkValidationFailed' } : { kind, fixedText: false };
}

export function envelopeFor(ctx: Context): EnvelopeKind {
  if (ctx.path.replace(/\/+$/, '') === '/transactU' && ctx.query.v === '8') return 'checkout';
  return envelopeForPath(ctx.path);
}

export function envelopeForPath(rawPath: string): EnvelopeKind {
  const path = rawPath.replace(/\/+$/, '');
  if (STATUS_ENVELOPE_PATHS.has(path)) return 'status';
  if (path.startsWith('/pl/api/')) return 'paylink';
  if (path === '/transactU') return 'mandate';
  if (CHECKOUT_PATHS.has(path)) return 'checkout';
  if (path === '/checkTxn') return 'checkTxn';
  if (path === '/api/v2/getSettlementReport') return 'settlementReport';
  if (path === '/api/v1/splitTxnByAmount') return 'split';
  return path === '/updateTxn' ? 'refund' : 'success';
}

/** A failure in the envelope of `kind`; `http` is the status line (the payment link envelope repeats it). */
export function failureBody(kind: EnvelopeKind, code: number, text: string, http = 200): object {
  if (kind === 'status') return { status: false, message: { code, text } };
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
  // The payment link envelope (DECISIONS.md): statusCode is the HTTP status, no entry was made.
  if (kind === 'paylink') return { success: false, statusCode: http, errorMessage: `${code}: ${text}`, data: [] };
  return { success: false, message: { code: String(code), text } };
}

export function errorBody(kind: EnvelopeKind, error: ApiErrorKind, detail?: string): object {
  const e = ApiErrors[error];
  return failureBody(kind, e.code, detail ? `${e.text}: ${detail}` : e.text, e.http);
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

/** Zaakpay's check status answer (`/checkTxn?v=5`) without an order. */
export function checkTxnFailure(code: string, text: string, merchantIdentifier: string | null = null) {
  return { success: false, merchantIdentifier, version: '5', orders: [], responseCode: code, responseDescription: text };
}

/** Zaakpay's Settlement API answer for a refusal: no lines. */
export function settlementReportFailure(code: string, text: string) {
  return { report: [], responsecode: code, responsedescription: text };
}

/** Zaakpay's Split Payment API answer for a refusal (orderId echoed once read). */
export function splitFailure(code: string, text: string, orderId: string | null = null) {
  return { status: 'FAILURE', errorCode: code, errorDescription: text, orderId };
}
