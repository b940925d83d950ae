import type { Context, Next } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { scopeAllows, type OperatorScope } from '../../domain/operator-token';
import { operatorTokens, type OperatorIdentity } from '../../usecases/operator-tokens';
import type { ApiDeps } from '../deps';

/**
 * Operator API: `Authorization: Bearer <token>`, a token whose scopes include the router's job
 * (docs/operators/production.md, "Credentials"). A GET or HEAD also takes a `read` token, except on
 * the narrow jobs (metrics, codec). A missing, unknown or revoked token is a 401; a token without
 * the scope a 403. The token is read from the store on every request, so a revocation holds at once
 * on every replica. Sets ctx.state.operatorName (the audit trail's actor) and operatorScopes.
 */
export function operatorAuth(deps: Pick<ApiDeps, 'store' | 'now' | 'config'>, job: OperatorScope) {
  const tokens = operatorTokens(deps.store.db, deps.now, deps.config.OPS_TOKEN);
  return async (ctx: Context, next: Next) => {
    const match = /^Bearer (.+)$/i.exec(ctx.get('authorization'));
    const operator = match ? await tokens.identify(match[1]) : null;
    if (!operator) throw new ApiError('operatorTokenInvalid');
    if (!scopeAllows(operator.scopes, job, ctx.method)) throw new ApiError('operatorScopeMissing', `needs the ${job} scope`);
    ctx.state.operatorName = operator.name;
    ctx.state.operatorScopes = operator.scopes;
    await next();
  };
}

/** One route of a router that needs more than its router's reads: a GET that reveals a secret. */
export function requireOperatorScope(job: OperatorScope) {
  return async (ctx: Context, next: Next) => {
    const scopes = (ctx.state.operatorScopes ?? []) as OperatorIdentity['scopes'];
    if (!scopes.includes(job)) throw new ApiError('operatorScopeMissing', `needs the ${job} scope`);
    await next();
  };
}
