/**
 * Dashboard roles (design.md, Merchant dashboard): owner (users, keys, settings, money), developer (keys, webhooks, logs) and
 * viewer (read only). Pages ask for a permission, never a role. Only owners hold credentials that
 * move money: a new API key creates payment links and the secret key signs /updateTxn refunds,
 * which a developer may not make in the dashboard either. The table below is the one place this is
 * decided; docs/merchants/dashboard.md's role table is rendered from it (`npm run docs:dashboard`).
 */
export const DASHBOARD_ROLES = ['owner', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

/** Each permission and what it allows, as the merchants' documentation states it. */
export const DASHBOARD_PERMISSIONS = {
  users: 'invite users, change their roles, remove them',
  keys: 'revoke API keys; rotate and retire the RSA keys',
  credentials:
    'credentials that move money: create API keys; rotate the secret key (the new key is shown in full once, to whoever rotated it) and revoke the previous one',
  webhooks: 'webhook URL, body format, the settlement opt-in, test webhooks, replays, re-enabling the endpoint',
  signingSecret:
    'the webhook signing secret: rotate it (the new secret is shown in full once, to whoever rotated it); everyone else sees it masked',
  payments: 'money: refunds, payment links, auto-refund',
  settlementAccount: 'where settlements are paid: the settlement bank account',
  audit: "read the merchant's audit trail (who changed what, when, from which address)",
} as const;
export type DashboardPermission = keyof typeof DASHBOARD_PERMISSIONS;

const GRANTS: Record<DashboardRole, readonly DashboardPermission[]> = {
  owner: ['users', 'keys', 'credentials', 'webhooks', 'signingSecret', 'payments', 'settlementAccount', 'audit'],
  // Developers build the receiver that verifies webhook signatures, so they hold the signing secret;
  // they hold no credential that moves money.
  developer: ['keys', 'webhooks', 'signingSecret'],
  viewer: [],
};

export const mayDo = (role: DashboardRole, permission: DashboardPermission) => GRANTS[role].includes(permission);

export const isDashboardRole = (v: unknown): v is DashboardRole => DASHBOARD_ROLES.includes(v as DashboardRole);

/** Emails are the users' identifiers: compared trimmed and lower-cased. */
export const normalEmail = (email: string) => email.trim().toLowerCase();

// Printable ASCII but '@' in each part (the same in every regex engine, so the fuzzer's idea of a
// valid address is the gateway's).
export const EMAIL_PATTERN = /^[!-?A-~]{1,64}@[!-?A-~]{1,189}\.[!-?A-~]{2,63}$/;

/** The role table as Markdown: one row per permission, one column per role. */
export function dashboardRoleTable(): string {
  const head = `| permission | allows | ${DASHBOARD_ROLES.join(' | ')} |`;
  const rule = `|---|---|${DASHBOARD_ROLES.map(() => ':-:').join('|')}|`;
  const rows = (Object.keys(DASHBOARD_PERMISSIONS) as DashboardPermission[]).map(
    (p) => `| \`${p}\` | ${DASHBOARD_PERMISSIONS[p]} | ${DASHBOARD_ROLES.map((r) => (mayDo(r, p) ? 'yes' : '—')).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}
