import { createInvitation, type InvitationDeps } from '../usecases/dashboard-invitations';
import { formatIstDateTime } from '../domain/ist-time';

export const DEMO_OWNER_EMAIL = 'owner@demo.example';

/**
 * How to reach the demo merchant's dashboard: until its owner has set a password, a fresh one-time
 * invitation link (there is no mail server; earlier links simply expire); afterwards, where to sign in.
 */
export async function demoDashboardInstructions(deps: InvitationDeps, merchantIdentifier: string): Promise<string> {
  const signIn = `${deps.publicBaseUrl}/dashboard`;
  if (await deps.dashboardUsers.findOfMerchant(merchantIdentifier, DEMO_OWNER_EMAIL))
    return `Merchant dashboard: ${signIn} (sign in as ${DEMO_OWNER_EMAIL} with the password you chose)`;
  const invitation = await createInvitation(deps, merchantIdentifier, {
    email: DEMO_OWNER_EMAIL,
    role: 'owner',
    invitedBy: 'npm start',
  });
  return [
    `Merchant dashboard: open this one-time link to choose ${DEMO_OWNER_EMAIL}'s password (until ${formatIstDateTime(invitation.expiresAt)} IST),`,
    `  ${invitation.invitationUrl}`,
    `  then sign in at ${signIn}`,
  ].join('\n');
}
