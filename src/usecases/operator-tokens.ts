import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../domain/api-errors';
import type { AuditActor } from '../domain/audit';
import {
  BREAK_GLASS_NAME,
  hashOperatorToken,
  newOperatorToken,
  OPERATOR_SCOPES,
  type OperatorIdentity,
  type OperatorScope,
  type OperatorToken,
  type OperatorTokenView,
} from '../domain/operator-token';
import type { OperatorTokenRepository } from '../store/operator-token-repository';
import type { AuditTrail } from './audit-trail';

export type { OperatorIdentity };

/** Scopes only the break-glass token grants: `tokens` (it would grant every scope) and `money` (two of them are two operators). */
const BREAK_GLASS_ONLY: ReadonlySet<OperatorScope> = new Set(['tokens', 'money']);

/** Whether the actor is the break-glass OPS_TOKEN (no stored token may take its name). */
const isBreakGlass = (actor: AuditActor) => actor.kind === 'operator' && actor.name === BREAK_GLASS_NAME;

const iso = (d: Date | null) => d?.toISOString() ?? null;
export const operatorTokenView = (t: OperatorToken): OperatorTokenView => ({
  name: t.name,
  scopes: t.scopes,
  createdAt: t.createdAt.toISOString(),
  rotatedAt: iso(t.rotatedAt),
  revokedAt: iso(t.revokedAt),
});

/**
 * Operator tokens by job (docs/operators/production.md): created, rotated and revoked through the
 * ops API with the `tokens` scope, each change an audit record. The configured OPS_TOKEN is the
 * break-glass token: every scope, never stored, acting as `ops-token`. Only it creates a token with
 * the `tokens` or `money` scope or rotates another's token; a named token rotates only itself.
 */
export function operatorTokens(
  deps: { tokens: OperatorTokenRepository; trail: AuditTrail; now: () => Date },
  breakGlassToken: string,
) {
  const { tokens, trail, now } = deps;
  const breakGlassHash = Buffer.from(hashOperatorToken(breakGlassToken), 'hex');
  const audit = (action: 'created' | 'rotated' | 'revoked', actor: AuditActor, from: string | null, t: OperatorToken) =>
    trail.record(`operator_token.${action}`, actor, {
      merchantIdentifier: null,
      from,
      detail: { name: t.name, scopes: t.scopes.join(',') },
    });
  return {
    async identify(presented: string): Promise<OperatorIdentity | null> {
      if (!presented) return null;
      const hash = hashOperatorToken(presented);
      if (breakGlassToken && timingSafeEqual(Buffer.from(hash, 'hex'), breakGlassHash))
        return { name: BREAK_GLASS_NAME, scopes: OPERATOR_SCOPES };
      // Looked up by its hash: the token itself meets no comparison that could leak timing.
      const token = await tokens.findLive(hash);
      return token ? { name: token.name, scopes: token.scopes } : null;
    },
    list: async () => (await tokens.list()).map(operatorTokenView),
    /** A new token: the token itself is in this answer only. */
    async create(name: string, scopes: OperatorScope[], actor: AuditActor, from: string | null) {
      if (name === BREAK_GLASS_NAME) throw new ApiError('operatorTokenNameTaken', `${name} is the configured OPS_TOKEN`);
      // A token that makes tokens could make one of every scope: only the break-glass token grants it.
      // Nor does a tokens token grant money: one holder minting two money tokens would propose and
      // confirm a settlement account change alone, under two names (the two-operator rule's point).
      const reserved = scopes.filter((s) => BREAK_GLASS_ONLY.has(s));
      if (reserved.length > 0 && !isBreakGlass(actor))
        throw new ApiError(
          'operatorScopeMissing',
          `only the break-glass OPS_TOKEN creates a token with the ${reserved.join(' or ')} scope`,
        );
      const token = newOperatorToken();
      const unique = [...new Set(scopes)].sort((a, b) => OPERATOR_SCOPES.indexOf(a) - OPERATOR_SCOPES.indexOf(b));
      if (!(await tokens.create(name, hashOperatorToken(token), unique, now()))) throw new ApiError('operatorTokenNameTaken');
      const created: OperatorToken = { name, scopes: unique, createdAt: now(), rotatedAt: null, revokedAt: null };
      await audit('created', actor, from, created);
      return { token, ...operatorTokenView(created) };
    },
    /** A new token for the name; the old one is refused from now on. */
    async rotate(name: string, actor: AuditActor, from: string | null) {
      // The new token is in the answer: rotating another's would hand its scopes to the caller.
      if (!isBreakGlass(actor) && !(actor.kind === 'operator' && actor.name === name))
        throw new ApiError('operatorScopeMissing', 'a named token rotates only itself; the break-glass OPS_TOKEN rotates any');
      const token = newOperatorToken();
      const rotated = await tokens.rotate(name, hashOperatorToken(token), now());
      if (!rotated) throw new ApiError('operatorTokenNotFound', `no live token named ${name}`);
      await audit('rotated', actor, from, rotated);
      return { token, ...operatorTokenView(rotated) };
    },
    async revoke(name: string, actor: AuditActor, from: string | null) {
      const revoked = await tokens.revoke(name, now());
      if (!revoked) throw new ApiError('operatorTokenNotFound', `no token named ${name}`);
      if (revoked.changed) await audit('revoked', actor, from, revoked.token);
      return operatorTokenView(revoked.token);
    },
  };
}
export type OperatorTokens = ReturnType<typeof operatorTokens>;
