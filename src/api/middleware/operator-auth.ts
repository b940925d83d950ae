import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { scopeAllows, type OperatorIdentity, type OperatorScope } from '../../domain/operator-token';
import type { ApiDeps } from '../deps';
import type { HeadersAuthScheme } from '../operation';

/**
 * Operator API: `Authorization: Bearer <token>`, a token whose scopes include the operation's job
 * (docs/operators/production.md, "Credentials"). A GET or HEAD also takes a `read` token, except on
 * the narrow jobs (metrics, codec). A missing, unknown or revoked token is a 401; a token without
 * the scope a 403. The token is read from the store on every request, so a revocation holds at once
 * on every replica.
 */
async function operatorOf(ctx: Context, deps: Pick<ApiDeps, 'useCases'>, job: OperatorScope): Promise<OperatorIdentity> {
  const match = /^Bearer (.+)$/i.exec(ctx.get('authorization'));
  const operator = match ? await deps.useCases.ops.identifyOperator(match[1]) : null;
  if (!operator) throw new ApiError('operatorTokenInvalid');
  if (!scopeAllows(operator.scopes, job, ctx.method)) throw new ApiError('operatorScopeMissing', `needs the ${job} scope`);
  return operator;
}

/**
 * The operator's token as an operation's scheme: the caller is the operator (its token's name, the
 * audit trail's actor, and its scopes). `also`: a scope the operation needs besides its job, a GET
 * included (a key that signs refunds is money, a secret revealed is no read).
 */
export function operatorToken(job: OperatorScope, also?: OperatorScope): HeadersAuthScheme<OperatorIdentity> {
  return {
    security: [{ operatorToken: [] }],
    from: 'headers',
    async authenticate(ctx, deps) {
      const operator = await operatorOf(ctx, deps, job);
      if (also && !operator.scopes.includes(also)) throw new ApiError('operatorScopeMissing', `needs the ${also} scope`);
      return operator;
    },
    limitKey: (operator) => operator.name,
  };
}
