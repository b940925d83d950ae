import type { Context } from 'koa';
import { mayDo, type DashboardPermission } from '../../domain/dashboard-roles';
import type { DashboardSession, DashboardUser } from '../../domain/dashboard-staff';
import type { ApiDeps } from '../deps';
import { fromOurOrigin, sameToken, sendPage } from '../hosted-page';
import type { AnswerCookie } from '../operation-browser';
import { publicDashboardPage, type DashboardViewer } from '../pages/dashboard-layout';
import { html } from '../pages/html';
import { HtmlPage, Redirect, Refusal, type BodyAuthScheme, type HeadersAuthScheme } from '../operation';

export const SESSION_COOKIE = 'gw_dashboard';

/** What a signed-in request carries in ctx.state.dashboard. */
export interface DashboardState {
  token: string;
  session: DashboardSession;
  user: DashboardUser;
  viewer: DashboardViewer;
}

/**
 * The session cookie (null: cleared): HttpOnly, SameSite=Strict, scoped to /dashboard, Secure over
 * https (directly, or behind a TLS proxy: with TRUST_PROXY as the proxy says, or as an https
 * PUBLIC_BASE_URL says).
 */
export function sessionCookie(http: { publicIsHttps: boolean }, token: string | null, maxAgeMs?: number): AnswerCookie {
  return {
    name: SESSION_COOKIE,
    value: token ?? '',
    path: '/dashboard',
    sameSite: 'strict',
    httpOnly: true,
    alwaysSecure: http.publicIsHttps,
    ...(token === null ? { maxAgeMs: null } : maxAgeMs ? { maxAgeMs } : {}),
  };
}

/** A page refusing a request (nothing was changed), for a signed-in user or not. */
export function refusalPage(ctx: Context, status: number, title: string, text: string): void {
  sendPage(ctx, status, refusalHtml(ctx.state.dashboard !== undefined, title, text));
}

export const notFoundPage = (ctx: Context) =>
  refusalPage(ctx, 404, 'Not found', 'There is no such page, or what it names does not belong to your merchant.');

/** Where a signed-out browser is sent: the sign-in page, then back to a /dashboard address only. */
export function safeNext(path: string | undefined): string {
  return path && /^\/dashboard(\/[A-Za-z0-9/_\-.?=&%]*)?$/.test(path) && !path.startsWith('//') ? path : '/dashboard';
}

/**
 * Every page behind sign-in: the session from its cookie (expired or unknown: to the sign-in page),
 * the user as stored now (a changed role counts at once; a removed user is signed out), its merchant.
 * The request's state (also in ctx.state.dashboard), or the redirect to the sign-in.
 */
async function signedInState(ctx: Context, deps: Pick<ApiDeps, 'useCases'>): Promise<DashboardState | Redirect> {
  const uc = deps.useCases.dashboard;
  const token = ctx.cookies.get(SESSION_COOKIE);
  const session = token ? await uc.findSession(token) : null;
  const user = session ? await uc.findUser(session.email) : null;
  const merchant =
    user && user.merchantIdentifier === session!.merchantIdentifier ? await uc.findMerchant(user.merchantIdentifier) : null;
  if (!token || !session || !user || !merchant) {
    if (token && session && !user) await uc.endSessionsOf(session.email);
    return new Redirect(`/dashboard/sign-in${ctx.method === 'GET' ? `?next=${encodeURIComponent(safeNext(ctx.url))}` : ''}`);
  }
  const state: DashboardState = {
    token,
    session,
    user,
    viewer: {
      email: user.email,
      role: user.role,
      merchantName: merchant.name,
      merchantIdentifier: merchant.merchantIdentifier,
      csrf: session.csrfToken,
    },
  };
  ctx.state.dashboard = state;
  return state;
}

/**
 * A signed-in POST's form came from the dashboard: it could be read (its media type, its size,
 * strict UTF-8, no field twice), no other origin posted it, and it carries the session's CSRF
 * token; otherwise 403 and nothing is changed.
 */
function formFromDashboard(
  ctx: Context,
  deps: Pick<ApiDeps, 'config'>,
  state: DashboardState,
  form: Record<string, string> | null,
): HtmlPage | null {
  if (form && fromOurOrigin(ctx, deps.config.http.publicOrigin) && sameToken(form.csrf, state.session.csrfToken)) return null;
  return new HtmlPage(
    403,
    refusalHtml(
      true,
      'Form expired',
      'This form is out of date or did not come from the dashboard; nothing was changed. Reload the page and try again.',
    ),
  );
}

/** A page refusing a request, as refusalPage writes it: for a signed-in user (back to the dashboard) or not (sign in). */
export function refusalHtml(signedIn: boolean, title: string, text: string): string {
  const back = signedIn
    ? html`<p><a href="/dashboard">Back to the dashboard</a></p>`
    : html`<p><a href="/dashboard/sign-in">Sign in</a></p>`;
  return publicDashboardPage(title, html`<p>${text}</p>${back}`);
}

/** A dashboard refusal: its whole answer is a page or a redirect to the sign-in (the operation's `refusalBody` answers it). */
export class PageRefusal extends Refusal {
  constructor(readonly answer: HtmlPage | Redirect) {
    super('dashboard', '', answer.status);
  }
}

/** The page of a declared dashboard operation's refusal (its `refusalBody`). */
export const pageRefusalBody = (refusal: Refusal): object =>
  refusal instanceof PageRefusal ? refusal.answer : new HtmlPage(refusal.http, refusalHtml(false, 'Refused', refusal.text));

export const notFoundAnswer = () =>
  new HtmlPage(404, refusalHtml(true, 'Not found', 'There is no such page, or what it names does not belong to your merchant.'));

/** A change the user's role does not allow: 403, nothing changed. */
export const notAllowedAnswer = (role: string) =>
  new HtmlPage(
    403,
    refusalHtml(true, 'Not allowed', `Your role (${role}) cannot do this; nothing was changed. Ask an owner of your merchant.`),
  );

const permitted = (state: DashboardState, permission: DashboardPermission | undefined) =>
  !permission || mayDo(state.user.role, permission) ? state : new PageRefusal(notAllowedAnswer(state.user.role));

/**
 * The session as a declared page's auth scheme, read from the headers alone: signedInState's checks
 * and refusals, then the permission, if any; the caller the request's DashboardState.
 */
export function dashboardSignedIn(permission?: DashboardPermission): HeadersAuthScheme<DashboardState> {
  return {
    from: 'headers',
    limitKey: (state) => state.user.email,
    async authenticate(ctx, deps) {
      const state = await signedInState(ctx, deps);
      return state instanceof Redirect ? new PageRefusal(state) : permitted(state, permission);
    },
  };
}

/**
 * The session as a declared form's auth scheme, given the browser's form as read (null where it
 * could not be): the session, then the form's origin and CSRF token (formFromDashboard), then the
 * permission, in that order, each refused as its page or redirect.
 */
export function dashboardFormSignedIn(permission?: DashboardPermission): BodyAuthScheme<DashboardState> {
  return {
    from: 'body',
    limitKey: (state) => state.user.email,
    // A post without a session cookie goes to sign-in unread: nobody signed out costs a form's parse.
    beforeBody: (ctx) => (ctx.cookies.get(SESSION_COOKIE) ? null : new PageRefusal(new Redirect('/dashboard/sign-in'))),
    async authenticate(ctx, deps, { parsed }) {
      const state = await signedInState(ctx, deps);
      if (state instanceof Redirect) return new PageRefusal(state);
      const expired = formFromDashboard(ctx, deps, state, parsed as Record<string, string> | null);
      return expired ? new PageRefusal(expired) : permitted(state, permission);
    },
  };
}
