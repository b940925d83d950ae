import type { Context } from 'koa';
import { PasswordWorkBusy, verifyPassword } from '../../domain/password';
import type { ApiDeps } from '../deps';
import { dashboardState } from '../middleware/dashboard-session';

/** Why a password re-check refused: the page's status and message (Retry-After already set). */
export interface PasswordRefusal {
  status: number;
  error: string;
}

/**
 * The signed-in user's password asked again before a change a session alone must not make (the
 * bank account, an owner's invitation, a role): a borrowed laptop or a stolen cookie is not enough.
 * Wrong passwords count against the sign-in limits. null: the password is right.
 */
export function passwordRecheck(deps: Pick<ApiDeps, 'useCases'>) {
  const uc = deps.useCases.dashboard;
  return async (ctx: Context, password: string | undefined, what: string): Promise<PasswordRefusal | null> => {
    const { user } = dashboardState(ctx);
    if (!password) return { status: 400, error: `Enter your password to ${what}. Nothing was changed.` };
    const { refusedMs, giveBack } = await uc.takePasswordAttempt(user.email, ctx.ip || 'unknown');
    if (refusedMs > 0) {
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(refusedMs / 1000))));
      return { status: 429, error: 'Too many wrong passwords: nothing was changed. Try again later.' };
    }
    let right: boolean;
    try {
      right = await verifyPassword(password, user.passwordHash);
    } catch (e) {
      if (!(e instanceof PasswordWorkBusy)) throw e;
      await giveBack();
      ctx.set('Retry-After', '1');
      return { status: 503, error: 'Too busy to check the password: nothing was changed. Try again.' };
    }
    if (!right) return { status: 403, error: 'Wrong password: nothing was changed.' };
    await giveBack();
    return null;
  };
}
