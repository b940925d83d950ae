import { z } from 'zod';
import { OPERATOR_SCOPES } from '../../domain/operator-token';
import { operation, successError } from '../reference/operation';
import { noBodySchema } from '../schemas/keys';
import { createOperatorTokenSchema, operatorTokenIssuedSchema, operatorTokenSchema } from '../schemas/operator-tokens';

const name = { name: 'name', in: 'path', required: true, schema: { type: 'string' }, example: 'prometheus' };
const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** Operator tokens by job: listed, created, rotated and revoked with the `tokens` scope. */
export function operatorTokenPaths(): Record<string, object> {
  const op = (o: Omit<Parameters<typeof operation>[0], 'security' | 'errorEnvelope'>) =>
    operation({ ...o, security: [{ operatorToken: [] }], errorEnvelope: successError });
  const change = (summary: string, description: string, schema: z.ZodType) => ({
    post: {
      ...op({
        summary,
        description,
        bodyOptional: true,
        request: noBodySchema,
        example: {},
        responses: { 200: { description: 'the token as it now stands', schema: ok(schema) } },
        errors: [400, 401, 404, 413, 415, 503],
      }),
      parameters: [name],
    },
  });
  return {
    '/ops/v1/operator-tokens': {
      get: op({
        summary:
          'Operator tokens (operator, tokens scope; a read token is refused): names, scopes, created, rotated, revoked; never the tokens',
        description:
          'Revoked tokens are listed with revokedAt. The configured OPS_TOKEN (break-glass, every scope) is not listed.',
        in: 'query',
        request: z.object({}),
        example: {},
        responses: { 200: { description: 'the tokens by name', schema: ok(z.object({ tokens: z.array(operatorTokenSchema) })) } },
        errors: [401, 503],
      }),
      post: op({
        summary: 'A new operator token for one job (operator, tokens scope)',
        description: `Scopes: ${OPERATOR_SCOPES.join(', ')}. Only the break-glass OPS_TOKEN creates a token with the tokens or the money scope (otherwise 403, code 2019). The token is in this answer only (the gateway keeps its SHA-256 hash). A name is never given twice, a revoked token's included: 409, code 2066. Recorded in the audit trail (operator_token.created).`,
        request: createOperatorTokenSchema,
        example: { name: 'prometheus', scopes: ['metrics'] },
        responses: { 201: { description: 'the new token, shown once', schema: ok(operatorTokenIssuedSchema) } },
        errors: [400, 401, 409, 413, 415, 503],
      }),
    },
    '/ops/v1/operator-tokens/{name}/rotate': change(
      'A new token for the name (operator, tokens scope): the old one is refused at once',
      "A named token rotates only itself; the break-glass OPS_TOKEN rotates any (another's name: 403, code 2019). No body, or {}. The new token is in this answer only. A revoked or unknown name: 404, code 2065. Recorded in the audit trail (operator_token.rotated).",
      operatorTokenIssuedSchema,
    ),
    '/ops/v1/operator-tokens/{name}/revoke': change(
      'Revoke an operator token (operator, tokens scope): refused from now on, on every replica',
      'No body, or {}. Revoking a revoked token changes nothing. Unknown name: 404, code 2065. Recorded in the audit trail (operator_token.revoked).',
      operatorTokenSchema,
    ),
  };
}
