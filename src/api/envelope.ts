import type { Context } from 'koa';
import { ApiErrors, type ApiErrorKind } from '../domain/api-errors';

/**
 * The contract has two envelopes: the status API's `{status, message: {code: number, text}}` and
 * everyone else's `{success, message: {code: string, text}}`. A router marks which one it speaks.
 */
export type EnvelopeKind = 'status' | 'success';

export function useEnvelope(kind: EnvelopeKind) {
  return async (ctx: Context, next: () => Promise<unknown>) => {
    ctx.state.envelope = kind;
    await next();
  };
}

export function failureBody(kind: EnvelopeKind, code: number, text: string): object {
  return kind === 'status'
    ? { status: false, message: { code, text } }
    : { success: false, message: { code: String(code), text } };
}

export function errorBody(kind: EnvelopeKind, error: ApiErrorKind, detail?: string): object {
  const e = ApiErrors[error];
  return failureBody(kind, e.code, detail ? `${e.text}: ${detail}` : e.text);
}
