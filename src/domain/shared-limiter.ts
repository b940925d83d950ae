/** How a shared limiter counts: at most `points` per key and `durationSeconds`, its keys under `keyPrefix`. */
export interface LimiterOptions {
  points: number;
  durationSeconds: number;
  keyPrefix: string;
}

/** A count per key over a window, shared by every API replica; what the per-merchant rate limit and the abuse limits are built on. */
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
