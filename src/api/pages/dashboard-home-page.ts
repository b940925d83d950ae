import { mayDo } from '../../domain/dashboard-roles';
import { csrfField, dashboardPage, type DashboardViewer } from './dashboard-layout';
import { html } from './html';

/** The signed-in user's own account: role, and signing out of every browser. */
export function accountPage(v: DashboardViewer, notice?: string): string {
  const can = (['users', 'keys', 'credentials', 'webhooks', 'signingSecret', 'payments'] as const).filter((p) =>
    mayDo(v.role, p),
  );
  return dashboardPage(
    'Your account',
    v,
    html`<section class="card" aria-labelledby="you-heading"><h2 id="you-heading">${v.email}</h2>
  <p>Role: <strong id="role">${v.role}</strong>. ${can.length ? `You can change: ${can.join(', ')}.` : 'You can read everything and change nothing.'}</p>
  <form method="post" action="/dashboard/sign-out-everywhere">${csrfField(v.csrf)}
    <p>Signed in on another computer, or lost one? This ends every session of your account, this one too.</p>
    <button type="submit" class="secondary">Sign out everywhere</button>
  </form></section>`,
    { current: 'account', ...(notice ? { notice } : {}) },
  );
}
