import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { operatorTokens } from '../../usecases/operator-tokens';
import type { ApiDeps } from '../deps';
import { readJson } from '../middleware/body';
import { operatorAuth, requireOperatorScope } from '../middleware/operator-auth';
import { createOperatorTokenSchema, operatorTokenNameSchema } from '../schemas/operator-tokens';
import { noBodySchema } from '../schemas/keys';
import { operatorActor } from './audit-actor';

/**
 * Operator tokens by job (docs/operators/production.md): the `tokens` scope lists, creates and revokes
 * them (a GET too: a `read` token does not list them); rotation and the `tokens` and `money` scopes are the
 * break-glass token's, but for a token rotating itself (usecases/operator-tokens.ts).
 */
export function operatorTokenRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1/operator-tokens' });
  router.use(operatorAuth(deps, 'tokens'));
  const tokens = operatorTokens(deps.store.db, deps.now, deps.config.OPS_TOKEN);
  const nameOf = (raw: string | undefined) => {
    const parsed = operatorTokenNameSchema.safeParse(raw);
    if (!parsed.success) throw new ApiError('operatorTokenNotFound', 'no token of that name');
    return parsed.data;
  };
  const noBody = async (ctx: Context) => {
    if (ctx.request.length || ctx.get('transfer-encoding')) await readJson(ctx, noBodySchema, deps.config.MAX_BODY_BYTES);
  };

  router.get('/', requireOperatorScope('tokens'), async (ctx) => {
    ctx.body = { success: true, data: { tokens: await tokens.list() } };
  });
  router.post('/', async (ctx) => {
    const { body } = await readJson(ctx, createOperatorTokenSchema, deps.config.MAX_BODY_BYTES);
    const created = await tokens.create(body.name, body.scopes, operatorActor(ctx), ctx.ip || null);
    deps.logger.info({ name: created.name, scopes: created.scopes, by: ctx.state.operatorName }, 'operator token created');
    ctx.status = 201;
    ctx.body = { success: true, data: created };
  });
  router.post('/:name/rotate', async (ctx) => {
    await noBody(ctx);
    const rotated = await tokens.rotate(nameOf(ctx.params.name), operatorActor(ctx), ctx.ip || null);
    deps.logger.info({ name: rotated.name, by: ctx.state.operatorName }, 'operator token rotated');
    ctx.body = { success: true, data: rotated };
  });
  router.post('/:name/revoke', async (ctx) => {
    await noBody(ctx);
    const revoked = await tokens.revoke(nameOf(ctx.params.name), operatorActor(ctx), ctx.ip || null);
    deps.logger.info({ name: revoked.name, by: ctx.state.operatorName }, 'operator token revoked');
    ctx.body = { success: true, data: revoked };
  });
  return router;
}
