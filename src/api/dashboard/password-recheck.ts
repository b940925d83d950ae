import { PasswordWorkBusy, verifyPassword } from '../../domain/password';
import type { ApiDeps } from '../deps';
import type { DashboardState } from '../middleware/dashboard-session';

/** Why a password re-check refused: the page's status, message and headers (Retry-After). */
export interface PasswordRefusal {
  status: number;
  error: string;
  headers: Record<string, string>;
}

/**
 * The signed-in user's password asked again before a change a session alone must not make (the
 * bank account, an owner's invitation, a role): a borrowed laptop or a stolen cookie is not enough.
 * Wrong passwords count against the sign-in limits. null: the password is right.
 */
export function passwordRecheck(deps: Pick<ApiDeps, 'useCases'>) {
  const uc = deps.useCases.dashboard;
  return async (
    { caller: { user }, ip }: { caller: DashboardState; ip: string | null },
    password: string | undefined,
    what: string,
  ): Promise<PasswordRefusal | null> => {
    if (!password) return { status: 400, error: `Enter your password to ${what}. Nothing was changed.`, headers: {} };
    const { refusedMs, giveBack } = await uc.takePasswordAttempt(user.email, ip ?? 'unknown');
    if (refusedMs > 0) {
      return {
        status: 429,
        error: 'Too many wrong passwords: nothing was changed. Try again later.',
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(refusedMs / 1000))) },
      };
    }
    let right: boolean;
    try {
      right = await verifyPassword(password, user.passwordHash);
    } catch (e) {
      if (!(e instanceof PasswordWorkBusy)) throw e;
      await giveBack();
      return {
        status: 503,
        error: 'Too busy to check the password: nothing was changed. Try again.',
        headers: { 'Retry-After': '1' },
      };
    }
    if (!right) return { status: 403, error: 'Wrong password: nothing was changed.', headers: {} };
    await giveBack();
    return null;
  };
}
