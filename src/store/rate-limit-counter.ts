import type { MongoClient } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimiterOptions, SharedLimiter } from '../domain/shared-limiter';

export const RATE_LIMITS_COLLECTION = 'rate_limits';

/** How often a replica adds its counts to the shared ones in the store. */
const SHARE_EVERY_MS = 100;

/**
 * At most `points` per key and `durationSeconds` across every API replica (rate-limiter-flexible).
 * Counting each request in the store would cost a store write per request on one hot document;
 * instead each replica limits locally (in memory, never more than the limit itself) and adds its
 * counts to the shared counter in the store every 100 ms. When the shared count passes the limit,
 * every replica refuses that key until the window is over. So replicas together may overshoot by
 * what arrives within one sharing period, never more.
 */
export function sharedLimiter(client: MongoClient, dbName: string, options: LimiterOptions): SharedLimiter {
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
