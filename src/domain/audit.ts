/**
 * The audit trail: every action that affects a merchant's money or access, taken by an operator or
 * a merchant's staff, recorded once and never edited (docs/operators/audit.md).
 */
export const AUDIT_ACTIONS = [
  'merchant.created',
  'merchant.updated',
  'key.created',
  'key.revealed',
  'key.rotated',
  'key.revoked',
  'operator_token.created',
  'operator_token.rotated',
  'operator_token.revoked',
  'settlement_account.proposed',
  'settlement_account.changed',
  'settlement_account.confirmed',
  'dashboard.role_changed',
  'dashboard.user_invited',
  'dashboard.user_removed',
  'refund.requested',
  'webhook.replayed',
  'webhook.settings_changed',
  'webhook.secret_rotated',
  'settlements.held',
  'settlements.released',
  'settlements.run',
  'fee_plan.set',
  'sub_merchant.linked',
  'chargeback.raised',
  'chargeback.reverted',
  'reconciliation.applied',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: an operator (by its token's name), a merchant's staff (by email), or the gateway itself. */
export type AuditActor = { kind: 'operator'; name: string } | { kind: 'staff'; email: string } | { kind: 'system'; name: string };

/** What is kept of an action: no secret, no account number beyond its last four digits. */
export type AuditDetail = Readonly<Record<string, string | number | boolean | null>>;

export interface AuditRecord {
  action: AuditAction;
  actor: AuditActor;
  /** The merchant the action affected (null: the gateway as a whole, e.g. an operator token). */
  merchantIdentifier: string | null;
  at: Date;
  /** The client address the request came from (null: not over HTTP). */
  from: string | null;
  detail: AuditDetail;
}

/**
 * A URL as an audit record keeps it: origin and path only. Credentials in its userinfo or query
 * would otherwise stay in the trail for good; text that is not a URL is kept as nothing.
 */
export function auditedUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return null;
  }
}

/** An audit record as the ops API, the CLI and the dashboard show it. */
export type AuditRecordView = Omit<AuditRecord, 'at' | 'merchantIdentifier'> & {
  id: string;
  merchantIdentifier: string | null;
  at: string;
};

/** Where the audit trail is read from: newest first, one merchant's or all, before a time. */
export interface AuditQuery {
  merchantIdentifier?: string;
  before?: Date;
  limit: number;
}
