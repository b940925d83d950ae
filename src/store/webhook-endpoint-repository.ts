import type { Collection, Db } from 'mongodb';

/** Latency buckets of webhook attempts, in seconds (the histogram in /metrics). */
export const WEBHOOK_LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

/**
 * The health of one merchant's webhook endpoint (`webhook_endpoints`, keyed by merchantIdentifier).
 * Every attempt changes it with one atomic single-document update: counters for metrics, and
 * `failingSince`, the first failed attempt since the last acknowledged one. Absent: never called.
 */
export interface WebhookEndpointDoc {
  _id: string;
  disabled?: boolean;
  disabledAt?: Date;
  disabledReason?: string;
  enabledAt?: Date;
  /** The first failed attempt since the last acknowledged one; absent while the endpoint answers. */
  failingSince?: Date;
  lastSuccessAt?: Date;
  lastFailureAt?: Date;
  attempts?: number;
  successes?: number;
  latencySumSeconds?: number;
  /** Cumulative: `b<i>` counts attempts within WEBHOOK_LATENCY_BUCKETS[i] seconds. */
  latencyBuckets?: Record<string, number>;
}

/** A merchant's endpoint health as operators read it. */
export interface WebhookEndpointHealth {
  merchantIdentifier: string;
  state: 'enabled' | 'disabled';
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  attempts: number;
  successes: number;
}

export interface EndpointAttempt {
  merchantIdentifier: string;
  acknowledged: boolean;
  at: Date;
  httpStatus: number | null;
  durationMs: number;
}

export const ENDPOINT_DISABLED = 'endpoint disabled';

export class WebhookEndpointRepository {
  private readonly endpoints: Collection<WebhookEndpointDoc>;

  constructor(db: Db) {
    this.endpoints = db.collection<WebhookEndpointDoc>('webhook_endpoints');
  }

  /**
   * Counts an attempt and follows the endpoint's health: acknowledged, it answers again
   * (`failingSince` cleared); failed, `failingSince` keeps the earliest failure. A 410 disables
   * the endpoint at once; so does a failure when every attempt has failed for `disableAfterMs`.
   * Returns whether this attempt disabled it.
   */
  async recordAttempt(a: EndpointAttempt, disableAfterMs: number): Promise<{ disabled: string | null }> {
    const seconds = a.durationMs / 1000;
    const inc: Record<string, number> = { attempts: 1, latencySumSeconds: seconds };
    if (a.acknowledged) inc.successes = 1;
    WEBHOOK_LATENCY_BUCKETS.forEach((le, i) => {
      if (seconds <= le) inc[`latencyBuckets.b${i}`] = 1;
    });
    if (a.acknowledged) {
      await this.endpoints.updateOne(
        { _id: a.merchantIdentifier },
        { $inc: inc, $set: { lastSuccessAt: a.at }, $unset: { failingSince: '' } },
        { upsert: true },
      );
      return { disabled: null };
    }
    await this.endpoints.updateOne(
      { _id: a.merchantIdentifier },
      { $inc: inc, $set: { lastFailureAt: a.at }, $min: { failingSince: a.at } },
      { upsert: true },
    );
    const reason =
      a.httpStatus === 410 ? 'answered 410 Gone' : `every attempt failed for ${Math.round(disableAfterMs / 3_600_000)}h`;
    // Conditional, so only the attempt that disables the endpoint reports it.
    const filter: Record<string, unknown> = { _id: a.merchantIdentifier, disabled: { $ne: true } };
    if (a.httpStatus !== 410) filter.failingSince = { $lte: new Date(a.at.getTime() - disableAfterMs) };
    const r = await this.endpoints.updateOne(filter, {
      $set: { disabled: true, disabledAt: a.at, disabledReason: reason },
    });
    return { disabled: r.modifiedCount === 1 ? reason : null };
  }

  async isDisabled(merchantIdentifier: string): Promise<boolean> {
    const doc = await this.endpoints.findOne({ _id: merchantIdentifier }, { projection: { disabled: 1 } });
    return doc?.disabled === true;
  }

  /** Enables the endpoint again; its failures are forgotten (the 5 days start over). */
  async enable(merchantIdentifier: string, at: Date): Promise<WebhookEndpointHealth> {
    const doc = await this.endpoints.findOneAndUpdate(
      { _id: merchantIdentifier },
      { $set: { disabled: false, enabledAt: at }, $unset: { failingSince: '', disabledAt: '', disabledReason: '' } },
      { upsert: true, returnDocument: 'after' },
    );
    return healthView(doc ?? { _id: merchantIdentifier });
  }

  async health(merchantIdentifier: string): Promise<WebhookEndpointHealth> {
    return healthView((await this.endpoints.findOne({ _id: merchantIdentifier })) ?? { _id: merchantIdentifier });
  }

  /**
   * The endpoints the metrics report: at most `limit`, in merchant order, only the fields the
   * metrics read, fetched in batches (a bounded read however many merchants there are).
   */
  async forMetrics(limit: number): Promise<WebhookEndpointDoc[]> {
    return this.endpoints
      .find(
        {},
        {
          projection: { attempts: 1, successes: 1, latencyBuckets: 1, latencySumSeconds: 1, disabled: 1 },
          sort: { _id: 1 },
          limit,
          batchSize: 500,
        },
      )
      .toArray();
  }
}

export function healthView(doc: WebhookEndpointDoc): WebhookEndpointHealth {
  return {
    merchantIdentifier: doc._id,
    state: doc.disabled ? 'disabled' : 'enabled',
    disabledAt: doc.disabled ? (doc.disabledAt ?? null) : null,
    disabledReason: doc.disabled ? (doc.disabledReason ?? null) : null,
    failingSince: doc.failingSince ?? null,
    lastSuccessAt: doc.lastSuccessAt ?? null,
    lastFailureAt: doc.lastFailureAt ?? null,
    attempts: doc.attempts ?? 0,
    successes: doc.successes ?? 0,
  };
}
