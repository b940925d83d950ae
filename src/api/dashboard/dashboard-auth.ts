import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { normalEmail } from '../../domain/dashboard-roles';
import { PasswordWorkBusy } from '../../domain/password';
import type { ApiDeps } from '../deps';
import { issueFormToken, readPageForm, sameSiteForm, sendPage } from '../hosted-page';
import { dashboardSession, dashboardState, refusalPage, safeNext, setSessionCookie } from '../middleware/dashboard-session';
import { invitationPage, invitationUnusablePage, signInPage } from '../pages/dashboard-auth-pages';
import { acceptInvitationFormSchema, emptyFormSchema, formProblem, signInFormSchema } from '../schemas/dashboard';

/** Before a session exists, forms carry a double-submit token in this cookie (as the hosted pages do). */
const FORM_COOKIE = 'gw_dashboard_form';

const BUSY = 'Too many sign-ins at this moment: nothing was changed. Please try again in a second.';

/** Sign-in (throttled per account and per address), sign-out (here or everywhere), accepting an invitation. */
export function dashboardAuthRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard' });
  const kit = authPageKit(deps);
  signInRoutes(router, deps, kit);
  signOutRoutes(router, deps, kit);
  invitationRoutes(router, deps, kit);
  return router;
}

/** Signing in: the form and its answer. */
function signInRoutes(router: Router, deps: ApiDeps, kit: AuthPageKit): void {
  const { base, showSignIn, busy, throttled } = kit;
  router.get('/sign-in', (ctx) => showSignIn(ctx, 200, { next: safeNext(String(ctx.query.next ?? '')) }));

  router.post('/sign-in', async (ctx) => {
    const parsed = signInFormSchema.safeParse(await readPageForm(ctx, deps.config.http.maxBodyBytes));
    if (!parsed.success) return showSignIn(ctx, 400, { next: '/dashboard', error: formProblem(parsed.error) });
    const form = parsed.data;
    const next = safeNext(form.next);
    if (!sameSiteForm(ctx, FORM_COOKIE, form.csrf, base))
      return showSignIn(ctx, 403, { next, error: 'The sign-in form had expired. Please try again.' });
    const email = normalEmail(form.email);
    // Each attempt is counted before the password is checked, and given back when it was right.
    const { refusedMs, giveBack } = await deps.useCases.dashboard.takePasswordAttempt(email, ctx.ip || 'unknown');
    if (refusedMs > 0) return throttled(ctx, refusedMs, next, email);
    let signedIn: { token: string } | null;
    try {
      signedIn = await deps.useCases.dashboard.signIn(email, form.password);
    } catch (e) {
      if (!(e instanceof PasswordWorkBusy)) throw e;
      await giveBack();
      return busy(ctx, () => showSignIn(ctx, 503, { next, email, error: BUSY }));
    }
    if (!signedIn) return showSignIn(ctx, 401, { next, email, error: 'Wrong email or password.' });
    await giveBack();
    setSessionCookie(ctx, base, signedIn.token, deps.config.dashboard.sessionHours * 3_600_000);
    ctx.status = 303;
    ctx.redirect(next);
  });
}

/** Signing out, here or everywhere. */
function signOutRoutes(router: Router, deps: ApiDeps, kit: AuthPageKit): void {
  const { base, session, onlyToken } = kit;
  router.post('/sign-out', session, onlyToken, async (ctx) => {
    await deps.useCases.dashboard.endSession(dashboardState(ctx).token);
    setSessionCookie(ctx, base, null);
    ctx.status = 303;
    ctx.redirect('/dashboard/sign-in');
  });

  router.post('/sign-out-everywhere', session, onlyToken, async (ctx) => {
    await deps.useCases.dashboard.endSessionsOf(dashboardState(ctx).user.email);
    setSessionCookie(ctx, base, null);
    ctx.status = 303;
    ctx.redirect('/dashboard/sign-in');
  });
}

/** An invitation: its page, and accepting it with a password. */
function invitationRoutes(router: Router, deps: ApiDeps, kit: AuthPageKit): void {
  const { base, busy, invitationView } = kit;
  router.get('/invitations/:token', (ctx) => invitationView(ctx, 200, ctx.params.token));

  router.post('/invitations/:token', async (ctx) => {
    const token = ctx.params.token;
    const parsed = acceptInvitationFormSchema.safeParse(await readPageForm(ctx, deps.config.http.maxBodyBytes));
    if (!parsed.success) return invitationView(ctx, 400, token, formProblem(parsed.error));
    if (!sameSiteForm(ctx, FORM_COOKIE, parsed.data.csrf, base))
      return invitationView(ctx, 403, token, 'The form had expired; nothing was changed. Please try again.');
    if (parsed.data.password !== parsed.data.passwordAgain) return invitationView(ctx, 400, token, 'The two passwords differ.');
    const accepted = await deps.useCases.dashboard.acceptInvitation(token, parsed.data.password).catch((e: unknown) => {
      if (e instanceof PasswordWorkBusy) return null;
      throw e;
    });
    if (!accepted) return busy(ctx, () => invitationView(ctx, 503, token, BUSY));
    if (!accepted.ok) {
      if (accepted.problem === 'password') return invitationView(ctx, 400, token, accepted.message);
      return sendPage(ctx, accepted.problem === 'invalid' ? 410 : 409, invitationUnusablePage(accepted.message));
    }
    ctx.status = 303;
    ctx.redirect(`/dashboard/sign-in?next=${encodeURIComponent('/dashboard')}`);
  });
}

/** What the sign-in, sign-out and invitation routes share: the pages shown, the limits and the session. */
function authPageKit(deps: ApiDeps) {
  const base = deps.config.http.publicBaseUrl;
  const session = dashboardSession(deps);

  const showSignIn = (ctx: Context, status: number, v: { next: string; email?: string; error?: string }) =>
    sendPage(ctx, status, signInPage({ ...v, csrf: issueFormToken(ctx, FORM_COOKIE, '/dashboard') }));

  function busy(ctx: Context, show: () => void | Promise<void>) {
    ctx.set('Retry-After', '1');
    return show();
  }

  function throttled(ctx: Context, ms: number, next: string, email: string) {
    const minutes = Math.max(1, Math.ceil(ms / 60_000));
    ctx.set('Retry-After', String(Math.max(1, Math.ceil(ms / 1000))));
    showSignIn(ctx, 429, {
      next,
      email,
      error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    });
  }

  /** The sign-out forms carry nothing but their CSRF token: any other field refuses them, nothing changed. */
  const onlyToken = async (ctx: Context, next: Next) => {
    if (!emptyFormSchema.safeParse(dashboardState(ctx).form).success)
      return refusalPage(ctx, 400, 'Unexpected fields', 'This form carried fields it does not have; nothing was changed.');
    await next();
  };

  const invitationView = async (ctx: Context, status: number, token: string, error?: string) => {
    const invitation = await deps.useCases.dashboard.findInvitation(token);
    const usable = invitation && !invitation.usedAt && invitation.expiresAt.getTime() > deps.now().getTime();
    const merchant = usable ? await deps.useCases.dashboard.findMerchant(invitation.merchantIdentifier) : null;
    if (!invitation || !merchant)
      return sendPage(
        ctx,
        410,
        invitationUnusablePage('This invitation link was used already, has expired or never existed. Ask for a new one.'),
      );
    const csrf = issueFormToken(ctx, FORM_COOKIE, '/dashboard');
    const action = `/dashboard/invitations/${encodeURIComponent(token)}`;
    sendPage(
      ctx,
      status,
      invitationPage({
        csrf,
        action,
        email: invitation.email,
        role: invitation.role,
        merchantName: merchant.name,
        ...(error ? { error } : {}),
      }),
    );
  };
  return { base, session, showSignIn, busy, throttled, onlyToken, invitationView };
}

type AuthPageKit = ReturnType<typeof authPageKit>;
