import type { Collection, Db } from 'mongodb';
import type { WebhookEndpointHealth } from '../domain/webhook-delivery';
import { isDuplicateKeyError } from './mongo';
import {
  countAttempt,
  noCounts,
  WEBHOOK_LATENCY_BUCKETS,
  type EndpointAttempt,
  type EndpointCounts,
} from './webhook-endpoint-counts';

export { WEBHOOK_LATENCY_BUCKETS, type EndpointAttempt };

/**
 * The health of one merchant's webhook endpoint (`webhook_endpoints`, keyed by merchantIdentifier):
 * counters for metrics, and `failingSince`, the first failed attempt since the last acknowledged
 * one. Workers add their counts in batches (EndpointHealthBuffer), each batch one atomic update
 * marked with its writer's sequence number. Absent: never called.
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
  /** Per writer (a worker process): the sequence number of its last batch added, so a retried batch is added once. */
  batches?: Record<string, number>;
}

export type { WebhookEndpointHealth };

export const ENDPOINT_DISABLED = 'endpoint disabled';

export class WebhookEndpointRepository {
  private readonly endpoints: Collection<WebhookEndpointDoc>;

  constructor(db: Db) {
    this.endpoints = db.collection<WebhookEndpointDoc>('webhook_endpoints');
  }

  /**
   * Counts one attempt at once (what EndpointHealthBuffer does in batches). Returns whether this
   * attempt disabled the endpoint.
   */
  async recordAttempt(a: EndpointAttempt, disableAfterMs: number): Promise<{ disabled: string | null }> {
    const counts = noCounts();
    countAttempt(counts, a);
    return this.addCounts(a.merchantIdentifier, counts, disableAfterMs);
  }

  /**
   * Adds a batch of attempts and follows the endpoint's health: a success clears a failing streak
   * that began before it; failures after the latest success keep the earliest in `failingSince`.
   * A 410 disables the endpoint at once; so does a failure when every attempt has failed for
   * `disableAfterMs`. Returns whether this batch disabled it (only the batch that does reports it),
   * and whether the endpoint is disabled now (null: not known).
   *
   * With `batch` (its writer and that writer's sequence number, increasing per writer), the counters
   * are added at most once: a batch retried after an answer was lost finds its number stored and
   * adds nothing again. Everything else here is idempotent on its own.
   */
  async addCounts(
    merchantIdentifier: string,
    c: EndpointCounts,
    disableAfterMs: number,
    batch?: { writer: string; seq: number },
  ): Promise<{ disabled: string | null; isDisabled: boolean | null }> {
    // A success ends the streak of failures before it (not one another worker saw start after it).
    if (c.lastSuccessAt) {
      await this.endpoints.updateOne(
        { _id: merchantIdentifier, failingSince: { $lte: c.lastSuccessAt } },
        { $unset: { failingSince: '' } },
      );
    }
    const inc: Record<string, number> = { attempts: c.attempts, latencySumSeconds: c.latencySumSeconds };
    if (c.successes > 0) inc.successes = c.successes;
    c.latencyBuckets.forEach((n, i) => {
      if (n > 0) inc[`latencyBuckets.b${i}`] = n;
    });
    const max: Record<string, Date> = {};
    if (c.lastSuccessAt) max.lastSuccessAt = c.lastSuccessAt;
    if (c.lastFailureAt) max.lastFailureAt = c.lastFailureAt;
    const marker = batch ? `batches.${batch.writer}` : null;
    const update = {
      $inc: inc,
      ...(Object.keys(max).length > 0 ? { $max: max } : {}),
      ...(c.failingSince ? { $min: { failingSince: c.failingSince } } : {}),
      ...(marker && batch ? { $set: { [marker]: batch.seq } } : {}),
    };
    const filter: Record<string, unknown> = { _id: merchantIdentifier };
    if (marker && batch) filter[marker] = { $ne: batch.seq };
    let doc: WebhookEndpointDoc | null;
    try {
      doc = await this.endpoints.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' });
    } catch (e) {
      // The marker did not match, so the upsert tried to insert the existing document: added before.
      if (!(marker && isDuplicateKeyError(e))) throw e;
      doc = await this.endpoints.findOne({ _id: merchantIdentifier });
      if (doc?.batches?.[batch!.writer] !== batch!.seq) throw e;
    }
    if (!c.lastFailureAt || doc?.disabled) return { disabled: null, isDisabled: doc?.disabled === true };
    const reason = c.gone
      ? 'answered 410 Gone'
      : doc?.failingSince && doc.failingSince.getTime() <= c.lastFailureAt.getTime() - disableAfterMs
        ? `every attempt failed for ${Math.round(disableAfterMs / 3_600_000)}h`
        : null;
    if (!reason) return { disabled: null, isDisabled: false };
    // Conditional, so only the batch that disables the endpoint reports it.
    const disable: Record<string, unknown> = { _id: merchantIdentifier, disabled: { $ne: true } };
    if (!c.gone) disable.failingSince = { $lte: new Date(c.lastFailureAt.getTime() - disableAfterMs) };
    const r = await this.endpoints.updateOne(disable, {
      $set: { disabled: true, disabledAt: c.lastFailureAt, disabledReason: reason },
    });
    // Not modified: disabled by another writer meanwhile, or a success ended the streak; unknown which.
    return r.modifiedCount === 1 ? { disabled: reason, isDisabled: true } : { disabled: null, isDisabled: null };
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
