import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { addressLimitKey } from '../../domain/network-address';
import type { LimiterOptions, SharedLimiter } from '../../domain/shared-limiter';

export type { LimiterOptions, SharedLimiter };

/** The API families limited separately, per merchant (design.md, Limits and pagination). */
export type ApiFamily =
  | 'status'
  | 'qr'
  | 'qr-image'
  | 'refunds'
  | 'sandbox'
  | 'ledger'
  | 'bulk'
  | 'paylinks'
  | 'paylink-page'
  | 'mandates'
  | 'checkout'
  | 'checkTxn'
  | 'split'
  | 'settlements';

export interface RateLimit {
  /** Counts one request of the merchant in the family; throws 429 (with Retry-After) past the limit. */
  consume(ctx: Context, family: ApiFamily, merchantIdentifier: string): Promise<void>;
  /**
   * Counts one request in the family against the client's address instead (the same limit): for
   * what anyone can replay from a merchant's public page (its signed checkout form again, a QR
   * image address), so a replaying payer spends its own budget, never the merchant's customers'.
   */
  consumeForClient(ctx: Context, family: ApiFamily): Promise<void>;
  /** A count per key over a window of its own, shared by every API replica: what the abuse limits count on. */
  limiter(options: LimiterOptions): SharedLimiter;
}

/** Answers 429 with Retry-After (whole seconds, at least 1). */
export function tooMany(ctx: Context, msBeforeNext: number, detail: string): ApiError {
  ctx.set('Retry-After', String(Math.max(1, Math.ceil(msBeforeNext / 1000))));
  return new ApiError('rateLimited', detail);
}

/**
 * Per merchant and API family, at most `perSecond` requests a second across every API replica (0
 * turns it off), counted on the limiters `limiter` makes (the composition's, shared in the store).
 */
export function perMerchantRateLimit(limiter: (options: LimiterOptions) => SharedLimiter, perSecond: number): RateLimit {
  if (perSecond === 0) return { consume: async () => undefined, consumeForClient: async () => undefined, limiter };
  const perFamily = limiter({ points: perSecond, durationSeconds: 1, keyPrefix: 'rlflx' });
  const count = async (ctx: Context, key: string) => {
    const refused = await perFamily.count(key);
    if (refused > 0) throw tooMany(ctx, refused, `at most ${perSecond} requests per second for this API`);
  };
  return {
    consume: (ctx, family, merchantIdentifier) => count(ctx, `${family}:${merchantIdentifier}`),
    // A key no merchant identifier can take (they are letters and digits).
    consumeForClient: (ctx, family) => count(ctx, `${family}:client ${addressLimitKey(ctx.ip || 'unknown')}`),
    limiter,
  };
}
