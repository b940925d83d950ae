import { randomBytes } from 'node:crypto';
import { InvitationRefusedError, type CreatedInvitation, type InvitationAsked } from '../domain/dashboard-invitation';
import { normalEmail } from '../domain/dashboard-roles';
import type { AcceptResult } from '../domain/dashboard-staff';
import { hashPassword, passwordProblem } from '../domain/password';
import type { DashboardInvitationRepository } from '../store/dashboard-invitation-repository';
import type { DashboardUserRepository } from '../store/dashboard-user-repository';
import type { MerchantRepository } from '../store/merchant-repository';

export interface InvitationDeps {
  merchants: MerchantRepository;
  dashboardUsers: DashboardUserRepository;
  dashboardInvitations: DashboardInvitationRepository;
  now: () => Date;
  publicBaseUrl: string;
  invitationHours: number;
}

export { InvitationRefusedError, type AcceptResult, type CreatedInvitation };

/**
 * Whether the merchant has an owner, or an owner invitation still open: then an operator's owner
 * invitation would make a second way in to the money (an owner changes the settlement account with
 * their own password), so only the break-glass token makes one (ops.ts); owners invite owners.
 */
export async function ownerInPlace(
  deps: Pick<InvitationDeps, 'dashboardUsers' | 'dashboardInvitations' | 'now'>,
  merchantIdentifier: string,
): Promise<boolean> {
  const users = await deps.dashboardUsers.listOfMerchant(merchantIdentifier);
  if (users.some((u) => u.role === 'owner')) return true;
  return deps.dashboardInvitations.ownerInvitationOpen(merchantIdentifier, deps.now());
}

/**
 * A one-time link for `email` to join the merchant's dashboard with `role`: the operator's way to
 * make a merchant's first owner (ops API, CLI) and an owner's way to add users. No mail is sent:
 * whoever invites hands the link on. Only the link's hash is stored.
 */
export async function createInvitation(
  deps: InvitationDeps,
  merchantIdentifier: string,
  invite: InvitationAsked,
): Promise<CreatedInvitation> {
  if (!(await deps.merchants.findById(merchantIdentifier))) throw new InvitationRefusedError('merchantNotFound');
  const email = normalEmail(invite.email);
  if (await deps.dashboardUsers.find(email)) throw new InvitationRefusedError('userExists');
  const token = randomBytes(32).toString('base64url');
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.invitationHours * 3_600_000);
  await deps.dashboardInvitations.create(token, {
    merchantIdentifier,
    email,
    role: invite.role,
    invitedBy: invite.invitedBy,
    createdAt: now,
    expiresAt,
    usedAt: null,
  });
  return { invitationUrl: `${deps.publicBaseUrl}/dashboard/invitations/${token}`, email, role: invite.role, expiresAt };
}

const INVALID = 'This invitation link is not valid: it was used already, has expired or never existed. Ask for a new one.';

/** Sets the invited user's password and creates the account; the link works once, before it expires. */
export async function acceptInvitation(
  deps: Pick<InvitationDeps, 'dashboardUsers' | 'dashboardInvitations' | 'now'> & { passwordCost: number },
  token: string,
  password: string,
): Promise<AcceptResult> {
  const now = deps.now();
  const invitation = await deps.dashboardInvitations.find(token);
  if (!invitation || invitation.usedAt || invitation.expiresAt.getTime() <= now.getTime())
    return { ok: false, problem: 'invalid', message: INVALID };
  const weak = passwordProblem(password);
  if (weak) return { ok: false, problem: 'password', message: weak };
  if (await deps.dashboardUsers.find(invitation.email))
    return { ok: false, problem: 'userExists', message: 'This email has a dashboard account already: sign in instead.' };
  const passwordHash = await hashPassword(password, deps.passwordCost);
  // Consumed first: the link's one use is the security property; a crash before the user is stored
  // costs a new invitation, never a second account.
  if (!(await deps.dashboardInvitations.consume(token, now))) return { ok: false, problem: 'invalid', message: INVALID };
  const created = await deps.dashboardUsers.create({
    email: invitation.email,
    merchantIdentifier: invitation.merchantIdentifier,
    role: invitation.role,
    passwordHash,
    createdAt: now,
  });
  if (!created)
    return { ok: false, problem: 'userExists', message: 'This email has a dashboard account already: sign in instead.' };
  return { ok: true, email: invitation.email };
}
