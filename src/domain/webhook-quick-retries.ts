/**
 * Which webhook attempts the transaction's workflow retries itself, before any delivery workflow
 * exists. `scheduleMs[i]` is the wait before attempt i + 1 (WEBHOOK_RETRY_SCHEDULE). Attempt n >= 2
 * is a quick retry when the schedule's waits from attempt 1 up to it add up to at most `withinMs`
 * (WEBHOOK_QUICK_RETRIES_WITHIN): with the default schedule (0,5s,5m,...) and 5 s, attempt 2 only.
 * A transient failure (a deploy, a restart, a 503) is then retried without a second workflow; the
 * long waits keep their own workflow (why: workflows/webhook.ts).
 */
export function isQuickRetry(scheduleMs: readonly number[], attempt: number, withinMs: number): boolean {
  if (attempt < 2 || attempt > scheduleMs.length) return false;
  let waited = 0;
  for (let i = 1; i < attempt; i++) waited += scheduleMs[i];
  return waited <= withinMs;
}

/** The wait before `attempt`, shortened by a Retry-After the merchant asked for; undefined past the schedule. */
export function waitBefore(scheduleMs: readonly number[], attempt: number, retryAfterMs?: number): number | undefined {
  const scheduled = scheduleMs[attempt - 1];
  if (scheduled === undefined) return undefined;
  return retryAfterMs !== undefined ? Math.min(scheduled, retryAfterMs) : scheduled;
}
