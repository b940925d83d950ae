/** Latency buckets of webhook attempts, in seconds (the histogram in /metrics). */
export const WEBHOOK_LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

/** One webhook attempt as endpoint health counts it. */
export interface EndpointAttempt {
  merchantIdentifier: string;
  acknowledged: boolean;
  at: Date;
  httpStatus: number | null;
  durationMs: number;
}

/**
 * What a worker adds to one merchant's endpoint health since it last wrote it: counters to `$inc`,
 * the latest success and failure, and `failingSince`, the first failure after the latest success
 * in these counts (absent when none failed after it).
 */
export interface EndpointCounts {
  attempts: number;
  successes: number;
  latencySumSeconds: number;
  /** Cumulative per WEBHOOK_LATENCY_BUCKETS index, as the stored `latencyBuckets.b<i>`. */
  latencyBuckets: number[];
  lastSuccessAt?: Date;
  lastFailureAt?: Date;
  failingSince?: Date;
  /** An attempt was answered 410 Gone: the endpoint is disabled at once. */
  gone?: true;
}

export const noCounts = (): EndpointCounts => ({
  attempts: 0,
  successes: 0,
  latencySumSeconds: 0,
  latencyBuckets: WEBHOOK_LATENCY_BUCKETS.map(() => 0),
});

/**
 * Adds one attempt. Attempts of one endpoint may finish out of order (concurrent deliveries), so
 * times are compared, not arrival: a success clears only failures before it, and a failure starts
 * a failing streak only when it came after every success counted.
 */
export function countAttempt(c: EndpointCounts, a: EndpointAttempt): void {
  const seconds = a.durationMs / 1000;
  c.attempts++;
  c.latencySumSeconds += seconds;
  WEBHOOK_LATENCY_BUCKETS.forEach((le, i) => {
    if (seconds <= le) c.latencyBuckets[i]++;
  });
  if (a.acknowledged) {
    c.successes++;
    if (!c.lastSuccessAt || a.at > c.lastSuccessAt) c.lastSuccessAt = a.at;
    if (c.failingSince && c.failingSince <= a.at) delete c.failingSince;
    return;
  }
  if (!c.lastFailureAt || a.at > c.lastFailureAt) c.lastFailureAt = a.at;
  if ((!c.lastSuccessAt || a.at > c.lastSuccessAt) && (!c.failingSince || a.at < c.failingSince)) c.failingSince = a.at;
  if (a.httpStatus === 410) c.gone = true;
}
