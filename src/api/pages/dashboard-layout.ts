import { mayDo, type DashboardPermission, type DashboardRole } from '../../domain/dashboard-roles';
import { layout } from './layout';
import { html, type Html } from './html';

/**
 * The dashboard's frame around the one page layout (layout.ts): a skip link, the navigation (a
 * labelled list of links, the current one marked aria-current) and who is signed in, with sign-out.
 * Every change is a form posting the session's CSRF token (`csrfField`); nothing needs script.
 */

/** Who is looking: what the frame shows and which links and forms a page offers. */
export interface DashboardViewer {
  email: string;
  role: DashboardRole;
  merchantName: string;
  merchantIdentifier: string;
  csrf: string;
}

/** The navigation, in order; a page missing from here is still reachable by its address. */
export const DASHBOARD_NAV: { key: string; href: string; label: string; permission?: DashboardPermission }[] = [
  { key: 'overview', href: '/dashboard', label: 'Overview' },
  { key: 'transactions', href: '/dashboard/transactions', label: 'Transactions' },
  { key: 'links', href: '/dashboard/links', label: 'Payment links' },
  { key: 'mandates', href: '/dashboard/mandates', label: 'Mandates' },
  { key: 'downloads', href: '/dashboard/downloads', label: 'Downloads' },
  { key: 'settlements', href: '/dashboard/settlements', label: 'Settlements' },
  { key: 'bank-account', href: '/dashboard/settlements/account', label: 'Bank account', permission: 'settlementAccount' },
  { key: 'developers', href: '/dashboard/developers', label: 'Developers' },
  { key: 'webhooks', href: '/dashboard/webhooks', label: 'Webhooks' },
  { key: 'users', href: '/dashboard/users', label: 'Users' },
  { key: 'audit', href: '/dashboard/audit', label: 'Audit', permission: 'audit' },
  { key: 'account', href: '/dashboard/account', label: 'Your account' },
];

/** A table that may scroll sideways on a phone: a labelled region the keyboard can reach and scroll. */
export const scrollableTable = (label: string, table: Html) =>
  html`<div class="table-wrap" role="region" aria-label="${label}" tabindex="0">${table}</div>`;

/** A secret as every role may see it: its prefix (whsec_) and last four characters, the rest hidden. */
export function maskedSecret(secret: string): string {
  const prefix = /^[a-z]+_/.exec(secret)?.[0] ?? '';
  return `${prefix}••••••••${secret.slice(-4)}`;
}

export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

function frame(v: DashboardViewer, current: string) {
  const links = DASHBOARD_NAV.filter((n) => !n.permission || mayDo(v.role, n.permission)).map(
    (n) => html`<li><a href="${n.href}"${n.key === current ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
  );
  return html`<a class="skip" href="#main">Skip to content</a>
<header class="bar">
  <div class="who"><span><strong>${v.merchantName}</strong> · <span id="signed-in-as">${v.email}</span> (${v.role})</span>
  <form method="post" action="/dashboard/sign-out">${csrfField(v.csrf)}<button type="submit">Sign out</button></form></div>
  <nav aria-label="Dashboard"><ul>${links}</ul></nav>
</header>`;
}

export interface DashboardPageOptions {
  /** The navigation entry this page is (DASHBOARD_NAV key). */
  current: string;
  /** A message about what was just done (role="status"). */
  notice?: string;
  /** What went wrong (role="alert"). */
  error?: string;
}

export function dashboardPage(title: string, v: DashboardViewer, body: Html, o: DashboardPageOptions): string {
  const notice = o.notice ? html`<p class="notice" role="status" id="notice">${o.notice}</p>` : '';
  const error = o.error ? html`<p class="error" role="alert" id="error">${o.error}</p>` : '';
  return layout(`${title} · ${v.merchantName} dashboard`, html`<h1>${title}</h1>\n${notice}${error}\n${body}`, {
    header: frame(v, o.current),
    wide: true,
  });
}

/** A page for someone not signed in (sign-in, invitation): the same layout without navigation. */
export function publicDashboardPage(title: string, body: Html, error?: string): string {
  const alert = error ? html`<p class="error" role="alert" id="error">${error}</p>` : '';
  return layout(`${title} · Merchant dashboard`, html`<section class="card"><h1>${title}</h1>${alert}${body}</section>`, {
    wide: false,
  });
}
