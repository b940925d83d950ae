import type { DashboardRole } from './dashboard-roles';

/** A dashboard user, keyed by its normalised email: one email belongs to one merchant. */
export interface DashboardUser {
  email: string;
  merchantIdentifier: string;
  role: DashboardRole;
  passwordHash: string;
  createdAt: Date;
}

/** A signed-in session (its cookie's token is not part of it: only the token's hash is stored). */
export interface DashboardSession {
  email: string;
  merchantIdentifier: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

/** A one-time invitation to the dashboard, as stored (its link's token is not part of it). */
export interface DashboardInvitation {
  merchantIdentifier: string;
  email: string;
  role: DashboardRole;
  /** `operator`, or the email of the owner who invited. */
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** An invitation just made: its link is shown once, to whoever invited. */
export type AcceptResult =
  { ok: true; email: string } | { ok: false; problem: 'invalid' | 'password' | 'userExists'; message: string };
