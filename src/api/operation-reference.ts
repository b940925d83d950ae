import { z } from 'zod';
import type { DeclaredOperation, OperationReference } from './operation';
import { operation } from './reference/operation';

/**
 * The OpenAPI path items of declared operations: the request is the body's schema (a signed form's
 * fields, a text file; a body-less operation's query), the security the scheme's.
 */
export function operationPaths(operations: readonly DeclaredOperation[]): Record<string, Record<string, object>> {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of operations) {
    // An address's one entry documents the operations its query selects.
    if (op.reference === 'shared' || op.reference === 'elsewhere') continue;
    const item = (paths[documentedPath(op.path)] ??= {});
    if (Object.hasOwn(item, op.method)) throw new Error(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    const { parameters, ...reference } = op.reference;
    const documented = operation({
      ...reference,
      ...requestOf(op, reference),
      ...(op.auth.security ? { security: op.auth.security } : {}),
      ...(op.auth.bodySignature ? { bodySignature: op.auth.bodySignature } : {}),
    });
    item[op.method] = parameters ? { ...documented, parameters } : documented;
  }
  return paths;
}

/** `/a/:name` as OpenAPI writes it, `/a/{name}`. */
const documentedPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/**
 * The request documented: the JSON body's schema, a signed form's fields, a flat form's schema (a
 * GET's in its query), a text file; a body-less operation's query.
 */
function requestOf(op: DeclaredOperation, reference: OperationReference): { request: z.ZodType; in?: 'form' | 'csv' | 'query' } {
  const { body } = op;
  switch (body.contentType) {
    case 'application/json':
      return { request: reference.request ?? body.schema };
    case 'application/x-www-form-urlencoded':
      if ('form' in body) return { in: 'form', request: reference.request ?? body.form };
      // A browser's form has no schema: its page reads the fields.
      if (!('schema' in body)) return { in: 'form', request: reference.request ?? z.object({}) };
      return { in: op.method === 'get' ? 'query' : 'form', request: reference.request ?? body.schema };
    case 'text/csv':
      return { in: 'csv', request: reference.request ?? body.schema };
    case 'none':
      return { in: 'query', request: reference.request ?? op.query ?? z.object({}) };
  }
}
