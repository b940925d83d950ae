/**
 * Dashboard roles (design.md, Merchant dashboard): owner (users, keys, settings, money),
 * developer (keys, webhooks, logs) and viewer (read only). Pages ask for a permission, never a role.
 * Only owners hold credentials that move money: a new API key creates payment links and the
 * secret key signs /updateTxn refunds, which a developer may not make in the dashboard either.
 */
export const DASHBOARD_ROLES = ['owner', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export type DashboardPermission =
  /** invite users, change their roles, remove them */
  | 'users'
  /** revoking API keys; the RSA keys (rotate, retire) */
  | 'keys'
  /** credentials that move money: creating API keys, rotating (and so seeing) the secret key */
  | 'credentials'
  /** webhook URL, format, auto-refund, signing secret, test webhooks, replays, re-enabling the endpoint */
  | 'webhooks'
  /** money: refunds and payment links */
  | 'payments'
  /** where settlements are paid: the settlement bank account */
  | 'settlementAccount';

const GRANTS: Record<DashboardRole, readonly DashboardPermission[]> = {
  owner: ['users', 'keys', 'credentials', 'webhooks', 'payments', 'settlementAccount'],
  developer: ['keys', 'webhooks'],
  viewer: [],
};

export const mayDo = (role: DashboardRole, permission: DashboardPermission) => GRANTS[role].includes(permission);

export const isDashboardRole = (v: unknown): v is DashboardRole => DASHBOARD_ROLES.includes(v as DashboardRole);

/** Emails are the users' identifiers: compared trimmed and lower-cased. */
export const normalEmail = (email: string) => email.trim().toLowerCase();

// Printable ASCII but '@' in each part (the same in every regex engine, so the fuzzer's idea of a
// valid address is the gateway's).
export const EMAIL_PATTERN = /^[!-?A-~]{1,64}@[!-?A-~]{1,189}\.[!-?A-~]{2,63}$/;
