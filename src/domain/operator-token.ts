import { createHash, randomBytes } from 'node:crypto';

/**
 * What an operator token may do, by job (docs/operators/production.md, "Credentials"):
 * - `read`: every GET of the operator API (merchants, keys' metadata, webhooks, settlements, audit)
 *   except what reveals a secret;
 * - `metrics`: GET /metrics only;
 * - `codec`: the Temporal payload codec (POST /ops/v1/codec/decode and /encode) only;
 * - `merchant-admin`: merchants, their keys, dashboard invitations, webhook settings and replays;
 * - `money`: settlements, settlement accounts, reconciliations, chargebacks, holds and runs;
 * - `tokens`: operator tokens themselves (create, rotate, revoke).
 */
export const OPERATOR_SCOPES = ['read', 'metrics', 'codec', 'merchant-admin', 'money', 'tokens'] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

/** Scopes whose GETs a `read` token may not make: the Prometheus scrape and the codec are their own tokens' jobs. */
const NARROW: ReadonlySet<OperatorScope> = new Set(['metrics', 'codec']);

/** Whether a token of `scopes` may make a request of `method` to a route whose job is `job` (`read` opens GETs but of the narrow jobs). */
export function scopeAllows(scopes: readonly OperatorScope[], job: OperatorScope, method: string): boolean {
  if (scopes.includes(job)) return true;
  return (method === 'GET' || method === 'HEAD') && !NARROW.has(job) && scopes.includes('read');
}

/** The name the break-glass OPS_TOKEN acts under in the audit trail; no stored token may take it. */
export const BREAK_GLASS_NAME = 'ops-token';

/** The prefix makes a leaked token recognisable to secret scanners; 32 random bytes behind it. */
export const newOperatorToken = (): string => `mgwop_${randomBytes(32).toString('base64url')}`;

/** Tokens are stored and looked up only as this hash (hex SHA-256 of the token as presented). */
export const hashOperatorToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export interface OperatorToken {
  name: string;
  scopes: OperatorScope[];
  createdAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

/** Who a presented token is: its name and scopes (the audit trail's actor). */
export interface OperatorIdentity {
  name: string;
  scopes: readonly OperatorScope[];
}

/** A token as the ops API lists it: never the token itself. */
export interface OperatorTokenView {
  name: string;
  scopes: OperatorScope[];
  createdAt: string;
  rotatedAt: string | null;
  revokedAt: string | null;
}

/** A token created or rotated: the token itself is in this answer only. */
export type IssuedOperatorToken = OperatorTokenView & { token: string };
