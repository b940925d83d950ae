import { randomBytes } from 'node:crypto';
import { normalEmail } from '../domain/dashboard-roles';
import { decoyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../domain/password';
import type { DashboardSessionRepository } from '../store/dashboard-session-repository';
import type { DashboardUserRepository } from '../store/dashboard-user-repository';

export interface SignInDeps {
  dashboardUsers: DashboardUserRepository;
  dashboardSessions: DashboardSessionRepository;
  now: () => Date;
  sessionHours: number;
  /** log2 of scrypt's N for new hashes (DASHBOARD_PASSWORD_COST). */
  passwordCost: number;
}

/**
 * Email and password to a new session (its token goes in the cookie, only its hash is stored);
 * null for a wrong password or an unknown email, which take the same time.
 */
export async function signIn(deps: SignInDeps, email: string, password: string): Promise<{ token: string } | null> {
  const user = await deps.dashboardUsers.find(normalEmail(email));
  const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash(deps.passwordCost)));
  if (!user || !matches) return null;
  // A hash made at an older, lower cost is replaced now, while the password is at hand.
  if (needsRehash(user.passwordHash, deps.passwordCost)) {
    await deps.dashboardUsers.replacePasswordHash(user.email, user.passwordHash, await hashPassword(password, deps.passwordCost));
  }
  const token = randomBytes(32).toString('base64url');
  const now = deps.now();
  await deps.dashboardSessions.create(token, {
    email: user.email,
    merchantIdentifier: user.merchantIdentifier,
    csrfToken: randomBytes(24).toString('base64url'),
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.sessionHours * 3_600_000),
  });
  return { token };
}
