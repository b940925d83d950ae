import { z } from 'zod';
import { OPERATOR_SCOPES } from '../../domain/operator-token';
import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';
import { operatorTokenIssuedSchema, operatorTokenSchema } from '../schemas/operator-tokens';

const name = { name: 'name', in: 'path', required: true, schema: { type: 'string' }, example: 'prometheus' };
const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/* Operator tokens by job: listed, created, rotated and revoked with the `tokens` scope. */

const change = (summary: string, description: string, schema: z.ZodType): OperationReference => ({
  summary,
  description,
  bodyOptional: true,
  example: {},
  responses: { 200: { description: 'the token as it now stands', schema: ok(schema) } },
  errors: [400, 401, 404, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [name],
});

/** The tokens listed. */
export const operatorTokenListReference: OperationReference = {
  summary:
    'Operator tokens (operator, tokens scope; a read token is refused): names, scopes, created, rotated, revoked; never the tokens',
  description: 'Revoked tokens are listed with revokedAt. The configured OPS_TOKEN (break-glass, every scope) is not listed.',
  example: {},
  responses: { 200: { description: 'the tokens by name', schema: ok(z.object({ tokens: z.array(operatorTokenSchema) })) } },
  errors: [401, 503],
  errorEnvelope: successError,
};

/** A token created. */
export const operatorTokenCreateReference: OperationReference = {
  summary: 'A new operator token for one job (operator, tokens scope)',
  description: `Scopes: ${OPERATOR_SCOPES.join(', ')}. Only the break-glass OPS_TOKEN creates a token with the tokens or the money scope (otherwise 403, code 2019). The token is in this answer only (the gateway keeps its SHA-256 hash). A name is never given twice, a revoked token's included: 409, code 2066. Recorded in the audit trail (operator_token.created).`,
  example: { name: 'prometheus', scopes: ['metrics'] },
  responses: { 201: { description: 'the new token, shown once', schema: ok(operatorTokenIssuedSchema) } },
  errors: [400, 401, 409, 413, 415, 503],
  errorEnvelope: successError,
};

/** A token rotated. */
export const operatorTokenRotateReference = change(
  'A new token for the name (operator, tokens scope): the old one is refused at once',
  "A named token rotates only itself; the break-glass OPS_TOKEN rotates any (another's name: 403, code 2019). No body, or {}. The new token is in this answer only. A revoked or unknown name: 404, code 2065. Recorded in the audit trail (operator_token.rotated).",
  operatorTokenIssuedSchema,
);

/** A token revoked. */
export const operatorTokenRevokeReference = change(
  'Revoke an operator token (operator, tokens scope): refused from now on, on every replica',
  'No body, or {}. Revoking a revoked token changes nothing. Unknown name: 404, code 2065. Recorded in the audit trail (operator_token.revoked).',
  operatorTokenSchema,
);
