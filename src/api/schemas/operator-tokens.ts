import { z } from 'zod';
import { OPERATOR_SCOPES } from '../../domain/operator-token';

export const operatorTokenNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be 1 to 64 of a-z, 0-9, dot, dash, underscore, starting with a letter or digit');

/** `POST /ops/v1/operator-tokens`: a name for the audit trail and the scopes of the token's job. */
export const createOperatorTokenSchema = z.strictObject({
  name: operatorTokenNameSchema,
  scopes: z.array(z.enum(OPERATOR_SCOPES)).min(1).max(OPERATOR_SCOPES.length),
});

export const operatorTokenSchema = z.object({
  name: z.string(),
  scopes: z.array(z.enum(OPERATOR_SCOPES)),
  createdAt: z.string().describe('ISO 8601 instant'),
  rotatedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

export const operatorTokenIssuedSchema = operatorTokenSchema.extend({
  token: z.string().describe('the token itself, in this answer only (the gateway keeps its SHA-256 hash)'),
});
