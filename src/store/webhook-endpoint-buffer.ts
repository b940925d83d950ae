import { randomBytes } from 'node:crypto';
import { countAttempt, noCounts, type EndpointAttempt, type EndpointCounts } from './webhook-endpoint-counts';
import { ENDPOINT_DISABLED, type WebhookEndpointRepository } from './webhook-endpoint-repository';

/** How often a worker adds the attempts it counted to the endpoints' health in the store. */
export const ENDPOINT_HEALTH_FLUSH_MS = 1000;

interface MerchantCounts {
  /** Counted since the batch below was taken. */
  pending: EndpointCounts | null;
  /** A batch whose write failed: written again, with the same sequence number, before anything newer. */
  unconfirmed: { counts: EndpointCounts; seq: number } | null;
  /** The writes of this merchant, one after the other (a batch's number must reach the store in order). */
  writing: Promise<unknown>;
  /** What the last write said of the endpoint (Date.now() when it did; why, when this process saw it disabled). */
  known: { disabled: boolean; reason?: string; at: number } | null;
}

/**
 * Endpoint health as a worker keeps it (what ENDPOINT_HEALTH_FLUSH_MS says, as the rate limits do):
 * an acknowledged attempt is counted in memory and added to the store with the merchant's other
 * attempts of the period in one update, so a busy endpoint costs one health write a second instead
 * of one per attempt on the one document every attempt of the merchant changes. A failed attempt
 * is written at once (with what was counted before it), since it may disable the endpoint and its
 * delivery must then stop.
 *
 * Each batch carries this writer's sequence number (WebhookEndpointRepository.addCounts), so a
 * batch whose answer was lost is written again and added once; a batch this process could not
 * write before it ended is lost, which only under-counts the health. `close` writes what is left.
 */
export class EndpointHealthBuffer {
  private readonly merchants = new Map<string, MerchantCounts>();
  private readonly writer = randomBytes(8).toString('hex');
  private seq = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly disableAfterMs: number,
    private readonly flushEveryMs = ENDPOINT_HEALTH_FLUSH_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), flushEveryMs).unref();
  }

  /**
   * Counts an attempt. A failed one is written before this returns: the answer says why the
   * endpoint is disabled when it is now (this attempt, or another written with it, disabled it),
   * null when it is not, or when the store could not be reached (the attempt is then written with
   * the next period, and a disabled endpoint stops the delivery at its next attempt).
   */
  async record(a: EndpointAttempt): Promise<{ disabled: string | null }> {
    const m = this.of(a.merchantIdentifier);
    countAttempt((m.pending ??= noCounts()), a);
    if (a.acknowledged) return { disabled: null };
    return this.write(a.merchantIdentifier).then(
      () => ({ disabled: m.known?.disabled ? (m.known.reason ?? ENDPOINT_DISABLED) : null }),
      () => ({ disabled: null }),
    );
  }

  /**
   * Whether the store said, within the last two periods, that the endpoint is enabled: an attempt
   * then skips reading it. An endpoint another worker disabled meanwhile gets calls for that long
   * at most; one known disabled is always read again (an operator may have enabled it).
   */
  knownEnabled(merchantIdentifier: string): boolean {
    const known = this.merchants.get(merchantIdentifier)?.known;
    return known !== null && known !== undefined && !known.disabled && Date.now() - known.at < 2 * this.flushEveryMs;
  }

  /** Writes every merchant's counts (the timer's work; a failed write is retried at the next). */
  async flush(): Promise<void> {
    const stale = Date.now() - 60 * this.flushEveryMs;
    for (const [merchantIdentifier, m] of this.merchants)
      if (!m.pending && !m.unconfirmed && (m.known?.at ?? 0) < stale) this.merchants.delete(merchantIdentifier);
    await Promise.all(
      [...this.merchants.entries()]
        .filter(([, m]) => m.pending || m.unconfirmed)
        .map(([merchantIdentifier]) => this.write(merchantIdentifier).catch(() => undefined)),
    );
  }

  /** Stops the timer and writes what is left (a worker's shutdown). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    await this.flush(); // a batch whose first write failed gets one more try
  }

  private of(merchantIdentifier: string): MerchantCounts {
    let m = this.merchants.get(merchantIdentifier);
    if (!m) {
      m = { pending: null, unconfirmed: null, writing: Promise.resolve(), known: null };
      this.merchants.set(merchantIdentifier, m);
    }
    return m;
  }

  /** Queues a write of the merchant's counts after its writes in flight; resolves once what was counted so far is written. */
  private write(merchantIdentifier: string) {
    const m = this.of(merchantIdentifier);
    const done = m.writing
      .catch(() => undefined)
      .then(async () => {
        while (m.unconfirmed || m.pending) {
          const batch = m.unconfirmed ?? { counts: m.pending!, seq: ++this.seq };
          if (!m.unconfirmed) {
            m.pending = null;
            m.unconfirmed = batch;
          }
          const r = await this.endpoints.addCounts(merchantIdentifier, batch.counts, this.disableAfterMs, {
            writer: this.writer,
            seq: batch.seq,
          });
          m.unconfirmed = null;
          m.known =
            r.isDisabled === null
              ? null
              : { disabled: r.isDisabled, at: Date.now(), ...(r.disabled !== null ? { reason: r.disabled } : {}) };
        }
      });
    m.writing = done;
    return done;
  }
}
