import type { Context } from 'koa';
import type { ApiErrorKind } from '../domain/api-errors';
import type { EnvelopeKind } from './envelope';

/**
 * Catalogue errors an API's contract reports as errors of its own (the ledger answers any failure
 * with its 1036, the bulk API any invalid request with 100 "Validation Failed").
 */
export interface OperationErrors {
  /** The error reported in place of each catalogue error thrown while serving the operation. */
  instead: Partial<Record<ApiErrorKind, ApiErrorKind>>;
  /** The text of those errors is the contract's, fixed: a thrown error's detail goes in the X-Error-Detail header. */
  fixedText?: boolean;
}

/** How an operation's thrown refusals are written: its envelope, and the errors its contract reports instead. */
export interface OperationRefusals {
  envelope: EnvelopeKind;
  errors?: OperationErrors;
}

/**
 * What the refusals at an address and query are written in, for a request no operation took (a
 * wrong method, an unknown route, a failure before routing, a broken request Node answers itself).
 */
export type RefusalsOfPath = (path: string, query?: Record<string, unknown>) => OperationRefusals;

/** Records the operation that took the request (operation-pipeline.ts), for the error middleware. */
export function recordOperation(ctx: Context, refusals: OperationRefusals): void {
  ctx.state.operation = refusals;
}

/** What the operation that took the request recorded, if one did. */
export function recordedOperation(ctx: Context): OperationRefusals | undefined {
  return ctx.state.operation as OperationRefusals | undefined;
}

/** The error reported for a thrown `kind`, and whether the detail stays out of its text. */
export function reportedError(refusals: OperationRefusals, kind: ApiErrorKind): { kind: ApiErrorKind; fixedText: boolean } {
  const instead = refusals.errors?.instead[kind];
  return instead ? { kind: instead, fixedText: refusals.errors?.fixedText ?? false } : { kind, fixedText: false };
}
