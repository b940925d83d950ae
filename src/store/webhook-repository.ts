import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookAttempt {
  attempt: number;
  at: Date;
  httpStatus: number | null;
  /** The first 512 bytes of the answer. */
  response: string | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookDelivery {
  _id: string;
  merchantIdentifier: string;
  realtime: boolean;
  url: string;
  contentType: string;
  /** The exact body, sent byte for byte on every attempt. */
  body: string;
  state: DeliveryState;
  attempts: WebhookAttempt[];
  createdAt: Date;
  /** Set on a replay: the delivery whose bytes it sends again. */
  replayOf?: string;
  /** Why a failed delivery stopped before its schedule ended (`endpoint disabled`). */
  failureReason?: string;
}

export interface DeliveryFilter {
  merchantIdentifier?: string;
  state?: DeliveryState;
  createdSince?: Date;
}

/** Webhook deliveries keyed by delivery id, with every attempt. */
export class WebhookRepository {
  private readonly deliveries: Collection<WebhookDelivery>;

  constructor(db: Db) {
    this.deliveries = db.collection<WebhookDelivery>('webhook_deliveries');
  }

  /** Stores a new delivery, or returns the one stored under its id (whose bytes then stand). */
  async createOrGet(d: Omit<WebhookDelivery, 'state' | 'attempts'>): Promise<WebhookDelivery> {
    const delivery: WebhookDelivery = { ...d, state: 'pending', attempts: [] };
    try {
      await this.deliveries.insertOne(delivery);
      return delivery;
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const existing = await this.deliveries.findOne({ _id: d._id });
      if (!existing) throw e;
      return existing;
    }
  }

  /** Logs an attempt; an acknowledged one also marks the delivery delivered. */
  async recordAttempt(deliveryId: string, acknowledged: boolean, attempt: WebhookAttempt): Promise<void> {
    const update = acknowledged
      ? { $push: { attempts: attempt }, $set: { state: 'delivered' as const } }
      : { $push: { attempts: attempt } };
    await this.deliveries.updateOne({ _id: deliveryId }, update);
  }

  async finish(deliveryId: string, state: Exclude<DeliveryState, 'pending'>, failureReason?: string): Promise<void> {
    await this.deliveries.updateOne(
      { _id: deliveryId, state: 'pending' },
      { $set: failureReason === undefined ? { state } : { state, failureReason } },
    );
  }

  async find(deliveryId: string): Promise<WebhookDelivery | null> {
    return this.deliveries.findOne({ _id: deliveryId });
  }

  /**
   * Deliveries matching the filter, newest first. An operator listing: it scans the collection,
   * which the store cannot index beyond _id (ARCHITECTURE.md); `limit` bounds the answer.
   */
  async list(filter: DeliveryFilter, limit: number): Promise<WebhookDelivery[]> {
    const query: Record<string, unknown> = {};
    if (filter.merchantIdentifier !== undefined) query.merchantIdentifier = filter.merchantIdentifier;
    if (filter.state !== undefined) query.state = filter.state;
    if (filter.createdSince !== undefined) query.createdAt = { $gte: filter.createdSince };
    return this.deliveries.find(query).sort({ createdAt: -1 }).limit(limit).toArray();
  }
}
