import { ApiError } from '../../domain/api-errors';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation, HttpAnswer } from '../operation';
import { noBodySchema } from '../schemas/keys';
import { createOperatorTokenSchema, operatorTokenNameSchema } from '../schemas/operator-tokens';
import { operatorActor } from './audit-actor';
import {
  operatorTokenCreateReference,
  operatorTokenListReference,
  operatorTokenRevokeReference,
  operatorTokenRotateReference,
} from './operator-tokens-openapi';

/*
 * Operator tokens by job (docs/operators/production.md): the `tokens` scope lists, creates and revokes
 * them (a GET too: a `read` token does not list them); rotation and the `tokens` and `money` scopes are the
 * break-glass token's, but for a token rotating itself (usecases/operator-tokens.ts).
 */

const common = { envelope: 'success', auth: operatorToken('tokens') } as const;
/** No body, or {}: anything else is refused. */
const noBody = { contentType: 'application/json', schema: noBodySchema, optional: true } as const;

function nameOf(raw: string | undefined): string {
  const parsed = operatorTokenNameSchema.safeParse(raw);
  if (!parsed.success) throw new ApiError('operatorTokenNotFound', 'no token of that name');
  return parsed.data;
}

export const operatorTokenListOperation = defineOperation({
  ...common,
  auth: operatorToken('tokens', 'tokens'),
  method: 'get',
  path: '/ops/v1/operator-tokens',
  body: { contentType: 'none' },
  reference: operatorTokenListReference,
  handle: async (_request, deps) => ({ success: true, data: { tokens: await deps.useCases.ops.listOperatorTokens() } }),
});

export const operatorTokenCreateOperation = defineOperation({
  ...common,
  method: 'post',
  path: '/ops/v1/operator-tokens',
  body: { contentType: 'application/json', schema: createOperatorTokenSchema },
  reference: operatorTokenCreateReference,
  async handle({ body, caller, ip }, deps) {
    const created = await deps.useCases.ops.createOperatorToken(body.name, body.scopes, operatorActor(caller), ip);
    deps.logger.info({ name: created.name, scopes: created.scopes, by: caller.name }, 'operator token created');
    return new HttpAnswer({ success: true, data: created }, { status: 201 });
  },
});

export const operatorTokenRotateOperation = defineOperation({
  ...common,
  method: 'post',
  path: '/ops/v1/operator-tokens/:name/rotate',
  body: noBody,
  reference: operatorTokenRotateReference,
  async handle({ params, caller, ip }, deps) {
    const rotated = await deps.useCases.ops.rotateOperatorToken(nameOf(params.name), operatorActor(caller), ip);
    deps.logger.info({ name: rotated.name, by: caller.name }, 'operator token rotated');
    return { success: true, data: rotated };
  },
});

export const operatorTokenRevokeOperation = defineOperation({
  ...common,
  method: 'post',
  path: '/ops/v1/operator-tokens/:name/revoke',
  body: noBody,
  reference: operatorTokenRevokeReference,
  async handle({ params, caller, ip }, deps) {
    const revoked = await deps.useCases.ops.revokeOperatorToken(nameOf(params.name), operatorActor(caller), ip);
    deps.logger.info({ name: revoked.name, by: caller.name }, 'operator token revoked');
    return { success: true, data: revoked };
  },
});

export const operatorTokenOperations = [
  operatorTokenListOperation,
  operatorTokenCreateOperation,
  operatorTokenRotateOperation,
  operatorTokenRevokeOperation,
];
