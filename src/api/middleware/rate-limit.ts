import type { Context } from 'koa';
import type { MongoClient } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../../domain/api-errors';
import { addressLimitKey } from '../../domain/network-address';

export const RATE_LIMITS_COLLECTION = 'rate_limits';

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
}

/** How often a replica adds its counts to the shared ones in the store. */
const SHARE_EVERY_MS = 100;

/** A count per key over a window, shared by every API replica; what storeRateLimit and the abuse limits are built on. */
export interface SharedLimiter {
  /** How long the key is still refused, in ms (0: it is not). */
  refusedFor(key: string): Promise<number>;
  /** Counts one against the key: 0 while within the limit, else how long (ms) it is refused. */
  count(key: string): Promise<number>;
  /**
   * Counts one against the key in the store itself, at once (one atomic update, no sharing
   * period): for the few expensive attempts (a sign-in's scrypt) that must be counted before the
   * work, so concurrent attempts on every replica never pass the limit. 0 or how long (ms) it is refused.
   */
  take(key: string): Promise<number>;
  /** Gives back one `take` (the attempt turned out not to count, e.g. a right password). */
  giveBack(key: string): Promise<void>;
}

/**
 * At most `points` per key and `durationSeconds` across every API replica (rate-limiter-flexible).
 * Counting each request in the store would cost a store write per request on one hot document;
 * instead each replica limits locally (in memory, never more than the limit itself) and adds its
 * counts to the shared counter in the store every 100 ms. When the shared count passes the limit,
 * every replica refuses that key until the window is over. So replicas together may overshoot by
 * what arrives within one sharing period, never more.
 */
export function sharedLimiter(
  client: MongoClient,
  dbName: string,
  options: { points: number; durationSeconds: number; keyPrefix: string },
): SharedLimiter {
  const { points, durationSeconds: duration, keyPrefix } = options;
  const local = new RateLimiterMemory({ points, duration, keyPrefix });
  const shared = new RateLimiterMongo({
    storeClient: client,
    dbName,
    tableName: RATE_LIMITS_COLLECTION,
    points,
    duration,
    keyPrefix,
    // ensureIndexes creates them, tolerating a store without TTL indexes.
    disableIndexesCreation: true,
  });
  const unshared = new Map<string, number>();
  const blockedUntil = new Map<string, number>();

  const share = async () => {
    const counts = [...unshared];
    unshared.clear();
    await Promise.all(
      counts.map(([key, n]) =>
        shared.consume(key, n).then(
          (res) => {
            // The whole window's allowance is used up across replicas: refuse it everywhere.
            if (res.remainingPoints === 0) blockedUntil.set(key, Date.now() + res.msBeforeNext);
          },
          (e: unknown) => {
            if (e instanceof RateLimiterRes) blockedUntil.set(key, Date.now() + e.msBeforeNext);
            // A store hiccup loses at most one period of counts; the local limit still holds.
          },
        ),
      ),
    );
    const now = Date.now();
    for (const [key, until] of blockedUntil) if (until <= now) blockedUntil.delete(key);
  };
  setInterval(() => void share(), SHARE_EVERY_MS).unref();

  return {
    async refusedFor(key) {
      const blocked = (blockedUntil.get(key) ?? 0) - Date.now();
      if (blocked > 0) return blocked;
      const res = await local.get(key);
      return res && res.consumedPoints >= points ? Math.max(1, res.msBeforeNext) : 0;
    },
    async count(key) {
      const blocked = (blockedUntil.get(key) ?? 0) - Date.now();
      if (blocked > 0) return blocked;
      try {
        await local.consume(key);
      } catch (e) {
        if (e instanceof RateLimiterRes) return Math.max(1, e.msBeforeNext);
        throw e;
      }
      unshared.set(key, (unshared.get(key) ?? 0) + 1);
      return 0;
    },
    async take(key) {
      try {
        await shared.consume(key, 1);
        return 0;
      } catch (e) {
        if (e instanceof RateLimiterRes) return Math.max(1, e.msBeforeNext);
        // The store did not answer: the local count still limits this replica.
        return this.count(key);
      }
    },
    async giveBack(key) {
      await shared.reward(key, 1).catch(() => undefined);
    },
  };
}

/** Answers 429 with Retry-After (whole seconds, at least 1). */
export function tooMany(ctx: Context, msBeforeNext: number, detail: string): ApiError {
  ctx.set('Retry-After', String(Math.max(1, Math.ceil(msBeforeNext / 1000))));
  return new ApiError('rateLimited', detail);
}

/** Per merchant and API family, at most `perSecond` requests a second across every API replica; 0 turns it off. */
export function storeRateLimit(client: MongoClient, dbName: string, perSecond: number): RateLimit {
  if (perSecond === 0) return { consume: async () => undefined, consumeForClient: async () => undefined };
  const limiter = sharedLimiter(client, dbName, { points: perSecond, durationSeconds: 1, keyPrefix: 'rlflx' });
  const count = async (ctx: Context, key: string) => {
    const refused = await limiter.count(key);
    if (refused > 0) throw tooMany(ctx, refused, `at most ${perSecond} requests per second for this API`);
  };
  return {
    consume: (ctx, family, merchantIdentifier) => count(ctx, `${family}:${merchantIdentifier}`),
    // A key no merchant identifier can take (they are letters and digits).
    consumeForClient: (ctx, family) => count(ctx, `${family}:client ${addressLimitKey(ctx.ip || 'unknown')}`),
  };
}
