import type { ApiErrorKind } from '../domain/api-errors';
import type { EnvelopeKind } from './envelope';
import { AUDIENCES } from './audiences';
import { operationEnvelopes } from './operation-reference';

/**
 * The error envelope a path speaks, from what the audience modules declare. Chosen by path (not by
 * the route that matched), so that errors raised before any route matched (a wrong method, a body too
 * large, a broken request Node answers itself) still speak the endpoint's envelope. A declared
 * operation's path speaks the envelope it declares.
 */
const declarations = AUDIENCES.flatMap((m) => [
  ...(m.operations ? [operationEnvelopes(m.operations)] : []),
  ...(m.envelope ? [m.envelope] : []),
]);

/** As the router matches (case-insensitive, a trailing slash allowed): `/TransactU` is `/transactU`'s address. */
const trimmed = (rawPath: string) => rawPath.replace(/\/+$/, '').toLowerCase();

export function envelopeFor(ctx: { path: string; query: Record<string, unknown> }): EnvelopeKind {
  return kindOf(trimmed(ctx.path), ctx.query);
}

export function envelopeForPath(rawPath: string): EnvelopeKind {
  return kindOf(trimmed(rawPath), {});
}

function kindOf(path: string, query: Record<string, unknown>): EnvelopeKind {
  for (const d of declarations) {
    const kind = d.kindOf(path, query);
    if (kind) return kind;
  }
  return 'success';
}

/** The error the endpoint at `path` reports for `kind`, and whether the detail stays out of its text. */
export function familyError(rawPath: string, kind: ApiErrorKind): { kind: ApiErrorKind; fixedText: boolean } {
  const path = trimmed(rawPath);
  for (const d of declarations) {
    const mapped = d.familyErrors?.[path]?.[kind];
    if (mapped) return { kind: mapped, fixedText: mapped === 'bulkValidationFailed' };
  }
  return { kind, fixedText: false };
}
