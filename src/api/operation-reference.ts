import type { EnvelopeDeclaration } from './audience';
import { selects, type DeclaredOperation, type OperationReference } from './operation';
import { operation } from './reference/operation';

/**
 * The OpenAPI path items of declared operations: the request is the body's schema (a signed form's
 * fields), the security the scheme's.
 */
export function operationPaths(operations: readonly DeclaredOperation[]): Record<string, Record<string, object>> {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of operations) {
    // An address's one entry documents the operations its query selects.
    if (op.reference === 'shared') continue;
    const item = (paths[op.path] ??= {});
    if (Object.hasOwn(item, op.method)) throw new Error(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    item[op.method] = operation({
      ...op.reference,
      ...requestOf(op, op.reference),
      ...(op.auth.security ? { security: op.auth.security } : {}),
      ...(op.auth.bodySignature ? { bodySignature: op.auth.bodySignature } : {}),
    });
  }
  return paths;
}

/** The request documented: the JSON body's schema, a signed form's fields, a flat form's schema (a GET's in its query). */
function requestOf(op: DeclaredOperation, reference: OperationReference) {
  const { body } = op;
  if (body.contentType === 'application/json') return { request: reference.request ?? body.schema };
  if ('form' in body) return { in: 'form' as const, request: reference.request ?? body.form };
  return { in: op.method === 'get' ? ('query' as const) : ('form' as const), request: reference.request ?? body.schema };
}

/**
 * The envelope of each operation's path, for errors raised before any route matched (a wrong
 * method): the same one the operation's own refusals speak, where the query selects it.
 */
export function operationEnvelopes(operations: readonly DeclaredOperation[]): EnvelopeDeclaration {
  return { kindOf: (path, query) => operations.find((op) => op.path.toLowerCase() === path && selects(op, query))?.envelope };
}
