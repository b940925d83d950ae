import type { Context } from 'koa';
import { mayDo, type DashboardPermission } from '../../domain/dashboard-roles';
import type { DashboardSession, DashboardUser } from '../../domain/dashboard-staff';
import type { ApiDeps } from '../deps';
import { fromOurOrigin, readPageForm, sameToken, sendPage } from '../hosted-page';
import type { AnswerCookie } from '../operation-browser';
import { publicDashboardPage, type DashboardViewer } from '../pages/dashboard-layout';
import { html } from '../pages/html';
import { HtmlPage, Redirect, Refusal, type HeadersAuthScheme } from '../operation';

export const SESSION_COOKIE = 'gw_dashboard';

/** What a signed-in request carries in ctx.state.dashboard. */
export interface DashboardState {
  token: string;
  session: DashboardSession;
  user: DashboardUser;
  viewer: DashboardViewer;
  /** A POST's form, read once the CSRF token matched. */
  form: Record<string, string>;
}

/**
 * The session cookie (null: cleared): HttpOnly, SameSite=Strict, scoped to /dashboard, Secure over
 * https (directly, or behind a TLS proxy: with TRUST_PROXY as the proxy says, or as an https
 * PUBLIC_BASE_URL says).
 */
export function sessionCookie(publicBaseUrl: string, token: string | null, maxAgeMs?: number): AnswerCookie {
  return {
    name: SESSION_COOKIE,
    value: token ?? '',
    path: '/dashboard',
    sameSite: 'strict',
    httpOnly: true,
    alwaysSecure: publicBaseUrl.startsWith('https://'),
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
 * A POST must carry the session's CSRF token and come from no other origin, or it is refused with
 * 403 before anything is read or changed. The request's state (also in ctx.state.dashboard), or the refusal to answer.
 */
async function signedInState(
  ctx: Context,
  deps: Pick<ApiDeps, 'useCases' | 'config'>,
): Promise<DashboardState | HtmlPage | Redirect> {
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
    form: {},
  };
  ctx.state.dashboard = state;
  if (ctx.method === 'POST') {
    const form = await readPageForm(ctx, deps.config.http.maxBodyBytes);
    if (!form || !fromOurOrigin(ctx, deps.config.http.publicBaseUrl) || !sameToken(form.csrf, session.csrfToken))
      return new HtmlPage(
        403,
        refusalHtml(
          true,
          'Form expired',
          'This form is out of date or did not come from the dashboard; nothing was changed. Reload the page and try again.',
        ),
      );
    delete form.csrf;
    state.form = form;
  }
  return state;
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

/**
 * The session as a declared operation's auth scheme: signedInState's checks and refusals, in its
 * order (the session from its cookie, a POST's origin and CSRF token, then the permission, if any),
 * the caller the request's DashboardState. A POST's form is read here:
 * the operation declares no body, and validates `caller.form` itself.
 */
export function dashboardSignedIn(permission?: DashboardPermission): HeadersAuthScheme<DashboardState> {
  return {
    from: 'headers',
    limitKey: (state) => state.user.email,
    async authenticate(ctx, deps) {
      const state = await signedInState(ctx, deps);
      if (!('token' in state)) return new PageRefusal(state);
      if (permission && !mayDo(state.user.role, permission)) return new PageRefusal(notAllowedAnswer(state.user.role));
      return state;
    },
  };
}
