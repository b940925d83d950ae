import { DASHBOARD_ROLES, mayDo } from '../../domain/dashboard-roles';
import type { CreatedInvitation } from '../../domain/dashboard-invitation';
import type { DashboardUser } from '../../domain/dashboard-staff';
import { formatIstDateTime } from '../../domain/ist-time';
import { csrfField, dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { html } from './html';

const roleOptions = (selected: string) =>
  DASHBOARD_ROLES.map((r) => html`<option value="${r}"${r === selected ? ' selected' : ''}>${r}</option>`);

/** The merchant's users, their roles, and (for an owner) invitations, role changes and removal. */
export function usersPage(
  v: DashboardViewer,
  users: DashboardUser[],
  o: { invitation?: CreatedInvitation; notice?: string; error?: string } = {},
): string {
  const owner = mayDo(v.role, 'users');
  const rows = users.map((u) => {
    const path = `/dashboard/users/${encodeURIComponent(u.email)}`;
    const self = u.email === v.email;
    const actions =
      owner && !self
        ? html`<form method="post" action="${path}/role">${csrfField(v.csrf)}
        <label for="role-${u.email}">Role of ${u.email}</label>
        <select id="role-${u.email}" name="role">${roleOptions(u.role)}</select>
        <label for="password-${u.email}">Your password</label><input id="password-${u.email}" name="password" type="password" required autocomplete="current-password">
        <button class="inline" type="submit">Change role</button></form>
        <form method="post" action="${path}/remove">${csrfField(v.csrf)}${u.role === 'owner' ? html`<label for="remove-password-${u.email}">Your password (needed to remove an owner)</label><input id="remove-password-${u.email}" name="password" type="password" required autocomplete="current-password">` : ''}<button class="inline secondary" type="submit" aria-label="Remove ${u.email}">Remove</button></form>`
        : self
          ? 'you'
          : '';
    return html`<tr><td>${u.email}</td><td>${u.role}</td><td>${formatIstDateTime(u.createdAt)} IST</td><td>${actions}</td></tr>`;
  });
  const created = o.invitation
    ? html`<section class="card" aria-labelledby="link-heading"><h2 id="link-heading">Invitation link for ${o.invitation.email}</h2>
  <p>Give this link to ${o.invitation.email}; it is shown only now, works once, and expires ${formatIstDateTime(o.invitation.expiresAt)} IST.</p>
  <p><code id="invitation-url">${o.invitation.invitationUrl}</code></p></section>`
    : '';
  const invite = owner
    ? html`<section class="card" aria-labelledby="invite-heading"><h2 id="invite-heading">Invite a user</h2>
  <form method="post" action="/dashboard/users/invitations">${csrfField(v.csrf)}
    <label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required>
    <label for="invite-role">Role</label><select id="invite-role" name="role">${roleOptions('viewer')}</select>
    <label for="invite-password">Your password (needed to invite an owner)</label><input id="invite-password" name="password" type="password" autocomplete="current-password">
    <button type="submit">Create invitation link</button>
  </form>
  <p class="muted">Owners manage users, keys and settings; developers keys, webhooks and logs; viewers only read. Inviting an owner, changing a role and removing an owner ask for your password again.</p></section>`
    : '';
  return dashboardPage(
    'Users',
    v,
    html`${created}<section class="card" aria-labelledby="users-heading"><h2 id="users-heading">Users of ${v.merchantName}</h2>
  ${scrollableTable(
    'Users',
    html`<table><caption class="muted">Everyone who can sign in to this dashboard</caption>
  <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col">Actions</th></tr></thead>
  <tbody>${rows}</tbody></table>`,
  )}</section>${invite}`,
    { current: 'users', ...(o.notice ? { notice: o.notice } : {}), ...(o.error ? { error: o.error } : {}) },
  );
}
