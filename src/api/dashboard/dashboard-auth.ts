import { normalEmail } from '../../domain/dashboard-roles';
import { PasswordWorkBusy } from '../../domain/password';
import type { ApiDeps } from '../deps';
import { formFromPage, newFormToken } from '../hosted-page';
import { pageRefusalBody, refusalHtml, safeNext, sessionCookie } from '../middleware/dashboard-session';
import { browserPage } from '../browser-page';
import { HtmlPage, Redirect, type HeadersAuthScheme } from '../operation';
import { WithCookies, type BrowserRequest } from '../operation-browser';
import { invitationPage, invitationUnusablePage, signInPage } from '../pages/dashboard-auth-pages';
import { acceptInvitationFormSchema, emptyFormSchema, formProblem, signInFormSchema } from '../schemas/dashboard';
import { dashboardOperation, type DashboardRequest } from './dashboard-operation';

/** Before a session exists, forms carry a double-submit token in this cookie (as the hosted pages do). */
const FORM_COOKIE = 'gw_dashboard_form';

const BUSY = 'Too many sign-ins at this moment: nothing was changed. Please try again in a second.';

/** A page before any sign-in: nobody to authenticate; its forms are checked with fromOurPage once they are valid. */
const signedOut: HeadersAuthScheme<null> = { from: 'headers', limitKey: () => '', authenticate: async () => null };

/** A form posted from our page: it echoes the page's double-submit cookie, and no other origin posted it. */
const fromOurPage = (browser: BrowserRequest, echoed: string | undefined) => formFromPage(browser, FORM_COOKIE, echoed);

/** A page before sign-in (a POST's form read as a browser's: its fields, or null), left out of the API reference. */
const signedOutPage = (o: Omit<Parameters<typeof browserPage<null>>[0], 'auth' | 'refusalBody'>) =>
  browserPage({ ...o, auth: signedOut, refusalBody: pageRefusalBody });

/** A page whose forms carry a fresh double-submit token, set as its cookie. */
function withFormToken(page: (csrf: string) => HtmlPage): WithCookies {
  const { token, cookie } = newFormToken(FORM_COOKIE, '/dashboard');
  return new WithCookies(page(token), [cookie]);
}

const showSignIn = (status: number, v: { next: string; email?: string; error?: string }, headers: Record<string, string> = {}) =>
  withFormToken((csrf) => new HtmlPage(status, signInPage({ ...v, csrf }), headers));

function throttled(ms: number, next: string, email: string) {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return showSignIn(
    429,
    { next, email, error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` },
    { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) },
  );
}

/** Sign-in (throttled per account and per address), sign-out (here or everywhere), accepting an invitation. */
export const signInPageOperation = signedOutPage({
  method: 'get',
  path: '/dashboard/sign-in',
  handle: async (r) => showSignIn(200, { next: safeNext(String(r.query.next ?? '')) }),
});

export const signInOperation = signedOutPage({
  method: 'post',
  path: '/dashboard/sign-in',
  async handle(r, deps) {
    const parsed = signInFormSchema.safeParse(r.body);
    if (!parsed.success) return showSignIn(400, { next: '/dashboard', error: formProblem(parsed.error) });
    const form = parsed.data;
    const next = safeNext(form.next);
    if (!fromOurPage(r.browser, form.csrf))
      return showSignIn(403, { next, error: 'The sign-in form had expired. Please try again.' });
    const email = normalEmail(form.email);
    // Each attempt is counted before the password is checked, and given back when it was right.
    const { refusedMs, giveBack } = await deps.useCases.dashboard.takePasswordAttempt(email, r.ip ?? 'unknown');
    if (refusedMs > 0) return throttled(refusedMs, next, email);
    let signedIn: { token: string } | null;
    try {
      signedIn = await deps.useCases.dashboard.signIn(email, form.password);
    } catch (e) {
      if (!(e instanceof PasswordWorkBusy)) throw e;
      await giveBack();
      return showSignIn(503, { next, email, error: BUSY }, { 'Retry-After': '1' });
    }
    if (!signedIn) return showSignIn(401, { next, email, error: 'Wrong email or password.' });
    await giveBack();
    return new WithCookies(new Redirect(next), [
      sessionCookie(deps.config.http, signedIn.token, deps.config.dashboard.sessionHours * 3_600_000),
    ]);
  },
});

/** The sign-out forms carry nothing but their CSRF token: any other field refuses them, nothing changed. */
const unexpectedFields = (r: DashboardRequest) =>
  emptyFormSchema.safeParse(r.body).success
    ? null
    : new HtmlPage(
        400,
        refusalHtml(true, 'Unexpected fields', 'This form carried fields it does not have; nothing was changed.'),
      );

const signedOutAnswer = (deps: ApiDeps) =>
  new WithCookies(new Redirect('/dashboard/sign-in'), [sessionCookie(deps.config.http, null)]);

export const signOutOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/sign-out',
  async handle(r, deps) {
    const unexpected = unexpectedFields(r);
    if (unexpected) return unexpected;
    await deps.useCases.dashboard.endSession(r.caller.token);
    return signedOutAnswer(deps);
  },
});

export const signOutEverywhereOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/sign-out-everywhere',
  async handle(r, deps) {
    const unexpected = unexpectedFields(r);
    if (unexpected) return unexpected;
    await deps.useCases.dashboard.endSessionsOf(r.caller.user.email);
    return signedOutAnswer(deps);
  },
});

/** An invitation's page (with an error), or the page saying it cannot be used (410). */
async function invitationView(
  deps: ApiDeps,
  status: number,
  token: string,
  error?: string,
  headers: Record<string, string> = {},
) {
  const invitation = await deps.useCases.dashboard.findInvitation(token);
  const usable = invitation && !invitation.usedAt && invitation.expiresAt.getTime() > deps.now().getTime();
  const merchant = usable ? await deps.useCases.dashboard.findMerchant(invitation.merchantIdentifier) : null;
  if (!invitation || !merchant)
    return new HtmlPage(
      410,
      invitationUnusablePage('This invitation link was used already, has expired or never existed. Ask for a new one.'),
      headers,
    );
  const action = `/dashboard/invitations/${encodeURIComponent(token)}`;
  const page = {
    action,
    email: invitation.email,
    role: invitation.role,
    merchantName: merchant.name,
    ...(error ? { error } : {}),
  };
  return withFormToken((csrf) => new HtmlPage(status, invitationPage({ csrf, ...page }), headers));
}

export const invitationPageOperation = signedOutPage({
  method: 'get',
  path: '/dashboard/invitations/:token',
  handle: (r, deps) => invitationView(deps, 200, r.params.token),
});

export const acceptInvitationOperation = signedOutPage({
  method: 'post',
  path: '/dashboard/invitations/:token',
  async handle(r, deps) {
    const token = r.params.token;
    const parsed = acceptInvitationFormSchema.safeParse(r.body);
    if (!parsed.success) return invitationView(deps, 400, token, formProblem(parsed.error));
    if (!fromOurPage(r.browser, parsed.data.csrf))
      return invitationView(deps, 403, token, 'The form had expired; nothing was changed. Please try again.');
    if (parsed.data.password !== parsed.data.passwordAgain) return invitationView(deps, 400, token, 'The two passwords differ.');
    const accepted = await deps.useCases.dashboard.acceptInvitation(token, parsed.data.password).catch((e: unknown) => {
      if (e instanceof PasswordWorkBusy) return null;
      throw e;
    });
    if (!accepted) return invitationView(deps, 503, token, BUSY, { 'Retry-After': '1' });
    if (!accepted.ok) {
      if (accepted.problem === 'password') return invitationView(deps, 400, token, accepted.message);
      return new HtmlPage(accepted.problem === 'invalid' ? 410 : 409, invitationUnusablePage(accepted.message));
    }
    return new Redirect(`/dashboard/sign-in?next=${encodeURIComponent('/dashboard')}`);
  },
});

export const authOperations = [
  signInPageOperation,
  signInOperation,
  signOutOperation,
  signOutEverywhereOperation,
  invitationPageOperation,
  acceptInvitationOperation,
];
