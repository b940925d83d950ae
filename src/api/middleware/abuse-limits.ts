import type { Context, Next } from 'koa';
import { ApiError, ApiErrors } from '../../domain/api-errors';
import { addressLimitKey } from '../../domain/network-address';
import { tooMany, type RateLimit, type SharedLimiter } from './rate-limit';

const MINUTE = 60;

function limiter(rateLimit: Pick<RateLimit, 'limiter'>, points: number, keyPrefix: string): SharedLimiter | null {
  return points === 0 ? null : rateLimit.limiter({ points, durationSeconds: MINUTE, keyPrefix });
}

/**
 * Failed authentications (every 401: thrown from the catalogue, or answered in a Zaakpay envelope) count against the client address and, when
 * the caller named one, the merchant it claimed to be. An address past its limit gets 429 on
 * every request until the minute is over, before any work; a claimed merchant past its limit turns
 * further failures into 429, while the merchant's correctly signed calls go on (anyone can claim
 * an identifier, so a claim never locks the merchant out).
 */
export function authFailureLimit(rateLimit: Pick<RateLimit, 'limiter'>, limits: { perAddress: number; perMerchant: number }) {
  const byAddress = limiter(rateLimit, limits.perAddress, 'auth-fail-ip');
  const byMerchant = limiter(rateLimit, limits.perMerchant, 'auth-fail-merchant');
  return async (ctx: Context, next: Next) => {
    const address = addressLimitKey(ctx.ip || 'unknown');
    const refused = byAddress ? await byAddress.refusedFor(address) : 0;
    if (refused > 0) throw tooMany(ctx, refused, 'too many failed authentications from this address');
    try {
      await next();
    } catch (e) {
      if (!(e instanceof ApiError) || ApiErrors[e.kind].http !== 401) throw e;
      const [addressRefused, merchantRefused] = await Promise.all([
        byAddress ? byAddress.count(address) : 0,
        byMerchant && e.claimedMerchant ? byMerchant.count(e.claimedMerchant) : 0,
      ]);
      if (addressRefused > 0) throw tooMany(ctx, addressRefused, 'too many failed authentications from this address');
      if (merchantRefused > 0) throw tooMany(ctx, merchantRefused, 'too many failed authentications for this merchant');
      throw e;
    }
    // Zaakpay-shaped answers (/updateTxn, /checkTxn, the split and settlement report APIs, the
    // checkout entries) give their own refusal instead of throwing, a 401 or a coded 200: counted
    // against the address too (the answer already made stands).
    if ((ctx.status === 401 || ctx.state.authenticationFailed === true) && byAddress) await byAddress.count(address);
  };
}

/** Marks a refusal answered in-route (HTTP 200 with Zaakpay's code) as a failed authentication. */
export function authenticationFailed(ctx: Context): void {
  ctx.state.authenticationFailed = true;
}

/**
 * The payer's pages (a payment link's, a checkout's, and their forms): per page token and per
 * client address, 429 past either. Counted before the page is looked up, so unknown tokens count too.
 */
export function hostedPageLimit(rateLimit: Pick<RateLimit, 'limiter'>, limits: { perToken: number; perAddress: number }) {
  const byToken = limiter(rateLimit, limits.perToken, 'page-token');
  const byAddress = limiter(rateLimit, limits.perAddress, 'page-ip');
  return async (ctx: Context, token: string): Promise<void> => {
    const [tokenRefused, addressRefused] = await Promise.all([
      byToken ? byToken.count(token) : 0,
      byAddress ? byAddress.count(addressLimitKey(ctx.ip || 'unknown')) : 0,
    ]);
    const refused = Math.max(tokenRefused, addressRefused);
    if (refused > 0) throw tooMany(ctx, refused, 'too many requests for this page');
  };
}
