import type { Middleware } from 'koa';

/** Liveness and metrics answer without Temporal; everything else may read the time. */
const CLOCK_FREE_PATHS = new Set(['/health', '/metrics']);

/**
 * Time-skipping mode: re-reads the test server's time before a request runs, so every rule that
 * reads `now` (peak windows, the 24-hour lead, expiry, the ledger's day) sees the time after the
 * latest skip, whichever process made it.
 */
export function followTestServerClock(sync: () => Promise<void>): Middleware {
  return async (ctx, next) => {
    if (!CLOCK_FREE_PATHS.has(ctx.path)) await sync();
    await next();
  };
}
