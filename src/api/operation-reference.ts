import type { z } from 'zod';
import type { EnvelopeDeclaration } from './audience';
import { selects, type DeclaredOperation } from './operation';
import { operation } from './reference/operation';

/**
 * The OpenAPI path items of declared operations: the request is the body's schema (a signed form's
 * fields), the security the scheme's.
 */
export function operationPaths(operations: readonly DeclaredOperation[]): Record<string, Record<string, object>> {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    if (Object.hasOwn(item, op.method)) throw new Error(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    item[op.method] = operation({
      ...op.reference,
      ...requestOf(op),
      ...(op.auth.security ? { security: op.auth.security } : {}),
      ...(op.auth.bodySignature ? { bodySignature: op.auth.bodySignature } : {}),
    });
  }
  return paths;
}

/**
 * The envelope of each operation's path, for errors raised before any route matched (a wrong
 * method): the same one the operation's own refusals speak, where the query selects it.
 */
export function operationEnvelopes(operations: readonly DeclaredOperation[]): EnvelopeDeclaration {
  return { kindOf: (path, query) => operations.find((op) => op.path.toLowerCase() === path && selects(op, query))?.envelope };
}

/** What the reference shows as the request: the body's schema, a signed form's fields, or the query's. */
function requestOf(op: DeclaredOperation): { in?: 'form' | 'query'; request: z.ZodType } {
  const { body, reference } = op;
  if (body.contentType === 'application/json') return { request: reference.request ?? body.schema };
  if (body.contentType === 'query') return { in: 'query', request: reference.request ?? body.schema };
  return { in: 'form', request: reference.request ?? body.form };
}
