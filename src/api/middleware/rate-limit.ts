import type { Context } from 'koa';
import type { MongoClient } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../../domain/api-errors';

export const RATE_LIMITS_COLLECTION = 'rate_limits';

/** The API families DECISIONS.md limits separately, per merchant. */
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
  | 'checkTxn';

export interface RateLimit {
  /** Counts one request of the merchant in the family; throws 429 (with Retry-After) past the limit. */
  consume(ctx: Context, family: ApiFamily, merchantIdentifier: string): Promise<void>;
}

/** How often a replica adds its counts to the shared ones in the store. */
const SHARE_EVERY_MS = 100;

/**
 * Per merchant and API family, at most `perSecond` requests a second across every API replica
 * (rate-limiter-flexible). Counting each request in the store would cost a store write per request
 * on one hot document; instead each replica limits locally (in memory, never more than the limit
 * itself) and adds its counts to the shared counter in the store every 100 ms. When the shared
 * count passes the limit, every replica refuses that key until the second is over. So replicas
 * together may overshoot by what arrives within one sharing period, never more. 0 turns it off.
 */
export function storeRateLimit(client: MongoClient, dbName: string, perSecond: number): RateLimit {
  if (perSecond === 0) return { consume: async () => undefined };
  const local = new RateLimiterMemory({ points: perSecond, duration: 1 });
  const shared = new RateLimiterMongo({
    storeClient: client,
    dbName,
    tableName: RATE_LIMITS_COLLECTION,
    points: perSecond,
    duration: 1,
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
            // The whole second's allowance is used up across replicas: refuse it everywhere.
            if (res.remainingPoints === 0) blockedUntil.set(key, Date.now() + res.msBeforeNext);
          },
          (e: unknown) => {
            if (e instanceof RateLimiterRes) blockedUntil.set(key, Date.now() + e.msBeforeNext);
            // A store hiccup loses at most one period of counts; the local limit still holds.
          },
        ),
      ),
    );
  };
  setInterval(() => void share(), SHARE_EVERY_MS).unref();

  const refuse = (ctx: Context, msBeforeNext: number) => {
    ctx.set('Retry-After', String(Math.max(1, Math.ceil(msBeforeNext / 1000))));
    return new ApiError('rateLimited', `at most ${perSecond} requests per second for this API`);
  };

  return {
    async consume(ctx, family, merchantIdentifier) {
      const key = `${family}:${merchantIdentifier}`;
      const blocked = (blockedUntil.get(key) ?? 0) - Date.now();
      if (blocked > 0) throw refuse(ctx, blocked);
      try {
        await local.consume(key);
      } catch (e) {
        if (e instanceof RateLimiterRes) throw refuse(ctx, e.msBeforeNext);
        throw e;
      }
      unshared.set(key, (unshared.get(key) ?? 0) + 1);
    },
  };
}
