import Router from '@koa/router';
import type { Context } from 'koa';
import { InvitationRefusedError } from '../../domain/dashboard-invitation';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import {
  dashboardSession,
  dashboardState,
  notFoundPage,
  requirePermission,
  signedInRequest,
} from '../middleware/dashboard-session';
import { usersPage } from '../pages/dashboard-users-page';
import { passwordRecheck } from './password-recheck';
import { staffAudit } from './staff-audit';
import { changeRoleFormSchema, emptyFormSchema, formProblem, inviteUserFormSchema } from '../schemas/dashboard';

/** The users page, with a notice or an error. */
function usersPage_(deps: ApiDeps) {
  const uc = deps.useCases.dashboard;
  return async (ctx: Context, status: number, o: Parameters<typeof usersPage>[2] = {}) => {
    const { viewer } = dashboardState(ctx);
    sendPage(ctx, status, usersPage(viewer, await uc.listUsers(viewer.merchantIdentifier), o));
  };
}

/**
 * The merchant's users: everyone reads the list; owners invite, change roles and remove. Inviting an
 * owner and changing a role need the owner's password again: a stolen session alone must not make
 * itself a second owner nor demote the real one.
 */
export function dashboardUserRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard/users' });
  router.use(dashboardSession(deps));
  const uc = deps.useCases.dashboard;
  const audit = staffAudit(deps);
  const recheck = passwordRecheck(deps);

  const show = usersPage_(deps);

  const DONE: Record<string, string> = { role: 'Role changed.', removed: 'User removed.' };
  router.get('/', (ctx) => {
    const done = String(ctx.query.done);
    return show(ctx, 200, Object.hasOwn(DONE, done) ? { notice: DONE[done] } : {});
  });

  router.post('/invitations', requirePermission('users'), async (ctx) => {
    const { viewer, form } = dashboardState(ctx);
    const { password, ...fields } = form;
    const parsed = inviteUserFormSchema.safeParse(fields);
    if (!parsed.success) return show(ctx, 400, { error: formProblem(parsed.error) });
    if (parsed.data.role === 'owner') {
      const refused = await recheck(signedInRequest(ctx), password, 'invite an owner');
      if (refused) {
        ctx.set(refused.headers);
        return show(ctx, refused.status, { error: refused.error });
      }
    }
    try {
      const invitation = await uc.inviteUser(viewer.merchantIdentifier, { ...parsed.data, invitedBy: viewer.email });
      await audit(signedInRequest(ctx), 'dashboard.user_invited', { email: invitation.email, role: invitation.role });
      await show(ctx, 201, { invitation, notice: `Invitation created for ${invitation.email}.` });
    } catch (e) {
      if (!(e instanceof InvitationRefusedError)) throw e;
      await show(ctx, 409, { error: 'This email has a dashboard account already.' });
    }
  });

  /** The user named in the address, only if it is this merchant's (another merchant's user: 404). */
  const target = (ctx: Context) =>
    uc.findUserOfMerchant(dashboardState(ctx).viewer.merchantIdentifier, (ctx.params as Record<string, string>).email);
  router.post('/:email/role', requirePermission('users'), async (ctx) => {
    const { viewer, form } = dashboardState(ctx);
    const user = await target(ctx);
    if (!user) return notFoundPage(ctx);
    const { password, ...fields } = form;
    const parsed = changeRoleFormSchema.safeParse(fields);
    if (!parsed.success) return show(ctx, 400, { error: formProblem(parsed.error) });
    if (user.email === viewer.email) return show(ctx, 409, { error: 'You cannot change your own role; ask another owner.' });
    const refused = await recheck(signedInRequest(ctx), password, 'change a role');
    if (refused) {
      ctx.set(refused.headers);
      return show(ctx, refused.status, { error: refused.error });
    }
    await uc.setRole(viewer.merchantIdentifier, user.email, parsed.data.role);
    await audit(signedInRequest(ctx), 'dashboard.role_changed', {
      email: user.email,
      previousRole: user.role,
      role: parsed.data.role,
    });
    ctx.status = 303;
    ctx.redirect('/dashboard/users?done=role');
  });

  router.post('/:email/remove', requirePermission('users'), async (ctx) => {
    const { viewer, form } = dashboardState(ctx);
    const user = await target(ctx);
    if (!user) return notFoundPage(ctx);
    // An owner's removal asks the password, as demoting one does: a session alone (a stolen cookie)
    // must not lock the other owners out of the notices of where their money goes.
    const { password, ...fields } = form;
    const parsed = emptyFormSchema.safeParse(user.role === 'owner' ? fields : form);
    if (!parsed.success) return show(ctx, 400, { error: formProblem(parsed.error) });
    if (user.email === viewer.email) return show(ctx, 409, { error: 'You cannot remove yourself; ask another owner.' });
    if (user.role === 'owner') {
      const refused = await recheck(signedInRequest(ctx), password, 'remove an owner');
      if (refused) {
        ctx.set(refused.headers);
        return show(ctx, refused.status, { error: refused.error });
      }
    }
    await uc.removeUser(viewer.merchantIdentifier, user.email);
    // A removed user's sessions end now (they would be refused anyway, the user being gone).
    await uc.endSessionsOf(user.email);
    await audit(signedInRequest(ctx), 'dashboard.user_removed', { email: user.email, role: user.role });
    ctx.status = 303;
    ctx.redirect('/dashboard/users?done=removed');
  });

  return router;
}
