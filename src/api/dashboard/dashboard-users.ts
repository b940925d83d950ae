import { InvitationRefusedError } from '../../domain/dashboard-invitation';
import type { ApiDeps } from '../deps';
import { notFoundAnswer } from '../middleware/dashboard-session';
import { HtmlPage, Redirect } from '../operation';
import { usersPage } from '../pages/dashboard-users-page';
import { dashboardOperation, type DashboardRequest } from './dashboard-operation';
import { passwordRecheck, type PasswordRefusal } from './password-recheck';
import { staffAudit } from './staff-audit';
import { changeRoleFormSchema, emptyFormSchema, formProblem, inviteUserFormSchema } from '../schemas/dashboard';

/** The users page, with a notice or an error (and a password re-check's headers). */
async function show(
  r: DashboardRequest,
  deps: ApiDeps,
  status: number,
  o: Parameters<typeof usersPage>[2] = {},
  headers: Record<string, string> = {},
): Promise<HtmlPage> {
  const { viewer } = r.caller;
  return new HtmlPage(status, usersPage(viewer, await deps.useCases.dashboard.listUsers(viewer.merchantIdentifier), o), headers);
}

/** The page saying why the password re-check refused. */
const recheckRefused = (r: DashboardRequest, deps: ApiDeps, refused: PasswordRefusal) =>
  show(r, deps, refused.status, { error: refused.error }, refused.headers);

const DONE: Record<string, string> = { role: 'Role changed.', removed: 'User removed.' };

/**
 * The merchant's users: everyone reads the list; owners invite, change roles and remove. Inviting an
 * owner and changing a role need the owner's password again: a stolen session alone must not make
 * itself a second owner nor demote the real one.
 */
export const usersPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/users',
  handle: (r, deps) => {
    const done = String(r.query.done);
    return show(r, deps, 200, Object.hasOwn(DONE, done) ? { notice: DONE[done] } : {});
  },
});

export const inviteUserOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/users/invitations',
  permission: 'users',
  async handle(r, deps) {
    const { viewer } = r.caller;
    const form = r.body;
    const { password, ...fields } = form;
    const parsed = inviteUserFormSchema.safeParse(fields);
    if (!parsed.success) return show(r, deps, 400, { error: formProblem(parsed.error) });
    if (parsed.data.role === 'owner') {
      const refused = await passwordRecheck(deps)(r, password, 'invite an owner');
      if (refused) return recheckRefused(r, deps, refused);
    }
    try {
      const invitation = await deps.useCases.dashboard.inviteUser(viewer.merchantIdentifier, {
        ...parsed.data,
        invitedBy: viewer.email,
      });
      await staffAudit(deps)(r, 'dashboard.user_invited', { email: invitation.email, role: invitation.role });
      return await show(r, deps, 201, { invitation, notice: `Invitation created for ${invitation.email}.` });
    } catch (e) {
      if (!(e instanceof InvitationRefusedError)) throw e;
      return show(r, deps, 409, { error: 'This email has a dashboard account already.' });
    }
  },
});

/** The user named in the address, only if it is this merchant's (another merchant's user: 404). */
const target = (r: DashboardRequest, deps: ApiDeps) =>
  deps.useCases.dashboard.findUserOfMerchant(r.caller.viewer.merchantIdentifier, r.params.email);

export const changeRoleOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/users/:email/role',
  permission: 'users',
  async handle(r, deps) {
    const { viewer } = r.caller;
    const form = r.body;
    const user = await target(r, deps);
    if (!user) return notFoundAnswer();
    const { password, ...fields } = form;
    const parsed = changeRoleFormSchema.safeParse(fields);
    if (!parsed.success) return show(r, deps, 400, { error: formProblem(parsed.error) });
    if (user.email === viewer.email) return show(r, deps, 409, { error: 'You cannot change your own role; ask another owner.' });
    const refused = await passwordRecheck(deps)(r, password, 'change a role');
    if (refused) return recheckRefused(r, deps, refused);
    await deps.useCases.dashboard.setRole(viewer.merchantIdentifier, user.email, parsed.data.role);
    await staffAudit(deps)(r, 'dashboard.role_changed', {
      email: user.email,
      previousRole: user.role,
      role: parsed.data.role,
    });
    return new Redirect('/dashboard/users?done=role');
  },
});

export const removeUserOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/users/:email/remove',
  permission: 'users',
  async handle(r, deps) {
    const { viewer } = r.caller;
    const form = r.body;
    const user = await target(r, deps);
    if (!user) return notFoundAnswer();
    // An owner's removal asks the password, as demoting one does: a session alone (a stolen cookie)
    // must not lock the other owners out of the notices of where their money goes.
    const { password, ...fields } = form;
    const parsed = emptyFormSchema.safeParse(user.role === 'owner' ? fields : form);
    if (!parsed.success) return show(r, deps, 400, { error: formProblem(parsed.error) });
    if (user.email === viewer.email) return show(r, deps, 409, { error: 'You cannot remove yourself; ask another owner.' });
    if (user.role === 'owner') {
      const refused = await passwordRecheck(deps)(r, password, 'remove an owner');
      if (refused) return recheckRefused(r, deps, refused);
    }
    await deps.useCases.dashboard.removeUser(viewer.merchantIdentifier, user.email);
    // A removed user's sessions end now (they would be refused anyway, the user being gone).
    await deps.useCases.dashboard.endSessionsOf(user.email);
    await staffAudit(deps)(r, 'dashboard.user_removed', { email: user.email, role: user.role });
    return new Redirect('/dashboard/users?done=removed');
  },
});

export const userOperations = [usersPageOperation, inviteUserOperation, changeRoleOperation, removeUserOperation];
