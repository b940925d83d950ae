import type { DashboardRole } from './dashboard-roles';

/** A one-time link to join a merchant's dashboard: only its hash is stored. */
export interface CreatedInvitation {
  invitationUrl: string;
  email: string;
  role: DashboardRole;
  expiresAt: Date;
}

/** Whom to invite, and who invites (`operator`, or the inviting owner's email). */
export interface InvitationAsked {
  email: string;
  role: DashboardRole;
  invitedBy: string;
}

export class InvitationRefusedError extends Error {
  constructor(readonly reason: 'merchantNotFound' | 'userExists') {
    super(reason === 'merchantNotFound' ? 'no such merchant' : 'this email has a dashboard account already');
  }
}
