import { addressLimitKey } from '../../domain/network-address';
import type { SharedLimiter } from '../middleware/rate-limit';

/** A limiter shared by every replica (middleware/rate-limit.ts's sharedLimiter over the store). */
export type SharedLimiterFactory = (o: { points: number; durationSeconds: number; keyPrefix: string }) => SharedLimiter;

const THROTTLE_WINDOW_SECONDS = 15 * 60;

/**
 * The failed-password limits (per account and per address) that sign-in and every password
 * re-check (the bank account change) count against together, so a stolen session cannot guess the
 * password more often than a signed-out guesser. Each attempt is taken before the password is
 * checked (concurrent guesses cannot pass the limit while their scrypt runs) and given back when
 * the password was right. `take` answers how long (ms) it is refused, 0 when it may go on.
 */
export function passwordAttemptLimits(
  shared: SharedLimiterFactory,
  dashboard: { signInFailuresPerAccount: number; signInFailuresPerAddress: number },
) {
  const limiter = (points: number, keyPrefix: string): SharedLimiter | null =>
    points === 0 ? null : shared({ points, durationSeconds: THROTTLE_WINDOW_SECONDS, keyPrefix });
  const byAccount = limiter(dashboard.signInFailuresPerAccount, 'dash-signin-account');
  const byAddress = limiter(dashboard.signInFailuresPerAddress, 'dash-signin-ip');
  return {
    async take(email: string, address: string): Promise<{ refusedMs: number; giveBack: () => Promise<unknown> }> {
      const taken: [SharedLimiter, string][] = [];
      let refusedMs = 0;
      for (const [limiter, key] of [
        [byAccount, email],
        [byAddress, addressLimitKey(address)],
      ] as const) {
        if (!limiter) continue;
        const refused = await limiter.take(key);
        if (refused > 0) refusedMs = Math.max(refusedMs, refused);
        else taken.push([limiter, key]);
      }
      const giveBack = () => Promise.all(taken.map(([limiter, key]) => limiter.giveBack(key)));
      if (refusedMs > 0) await giveBack();
      return { refusedMs, giveBack };
    },
  };
}
