import type { Collection, Db, Document } from 'mongodb';
import { PayerDataCipher, type PayerFieldContext } from '../domain/payer-data';
import { isDuplicateKeyError } from './mongo';
import { sealClearField } from './seal-clear-field';
import type {
  DeliveryFilter,
  DeliveryState,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliverySummary,
} from '../domain/webhook-delivery';

export type { DeliveryFilter, DeliveryState, WebhookAttempt, WebhookDelivery, WebhookDeliverySummary };

/**
 * As stored: the body sealed for this delivery (it carries masked cards and card ids), opened
 * byte for byte on read; deliveries stored before carry `body` in clear until migrated.
 */
type WebhookDeliveryDoc = Omit<WebhookDelivery, 'body'> & { body?: string; bodySealed?: string };

const bodyContext = (d: { _id: string; merchantIdentifier: string }): PayerFieldContext => ({
  merchantIdentifier: d.merchantIdentifier,
  field: 'body',
  documentId: d._id,
});

/** Webhook deliveries keyed by delivery id, with every attempt. */
export class WebhookRepository {
  private readonly deliveries: Collection<WebhookDeliveryDoc>;
  private readonly cipher: PayerDataCipher;

  constructor(db: Db, masterKey: string) {
    this.deliveries = db.collection<WebhookDeliveryDoc>('webhook_deliveries');
    this.cipher = new PayerDataCipher(masterKey);
  }

  private toDelivery = ({ body, bodySealed, ...rest }: WebhookDeliveryDoc): WebhookDelivery => ({
    ...rest,
    body: bodySealed !== undefined ? this.cipher.open(bodySealed, bodyContext(rest)) : body!,
  });

  /**
   * Seals the bodies of deliveries stored before they were encrypted (at start-up, idempotent; a
   * body never changes once stored). Returns how many it rewrote.
   */
  async migratePayerDataAtRest(): Promise<number> {
    return sealClearField(this.deliveries as unknown as Collection<Document>, 'body', (at, body) => ({
      bodySealed: this.cipher.seal(body, bodyContext(at)),
    }));
  }

  /** Stores a new delivery, or returns the one stored under its id (whose bytes then stand). */
  async createOrGet(d: Omit<WebhookDelivery, 'state' | 'attempts'>): Promise<WebhookDelivery> {
    const { body, ...rest } = d;
    const delivery: WebhookDelivery = { ...d, state: 'pending', attempts: [] };
    try {
      await this.deliveries.insertOne({
        ...rest,
        bodySealed: this.cipher.seal(body, bodyContext(d)),
        state: 'pending',
        attempts: [],
      });
      return delivery;
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const existing = await this.find(d._id);
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

  /** A pending delivery never sent again: the order had a later outcome (`by`). False if it was not pending. */
  async supersede(deliveryId: string, by: string): Promise<boolean> {
    const r = await this.deliveries.updateOne(
      { _id: deliveryId, state: 'pending' },
      { $set: { state: 'superseded', supersededBy: by } },
    );
    return r.modifiedCount === 1;
  }

  async finish(deliveryId: string, state: Exclude<DeliveryState, 'pending'>, failureReason?: string): Promise<void> {
    await this.deliveries.updateOne(
      { _id: deliveryId, state: 'pending' },
      { $set: failureReason === undefined ? { state } : { state, failureReason } },
    );
  }

  /** A delivery without its body (nothing decrypted): its state, merchant and attempts. */
  async findSummary(deliveryId: string): Promise<WebhookDeliverySummary | null> {
    return this.deliveries.findOne({ _id: deliveryId }, { projection: { body: 0, bodySealed: 0 } });
  }

  /**
   * Takes replay generation `generation + 1` of an original that stands at `generation` (a
   * compare-and-set: of two concurrent replays one takes it, the other finds it taken).
   */
  async claimReplayGeneration(originalId: string, generation: number): Promise<boolean> {
    const r = await this.deliveries.updateOne(
      { _id: originalId, replayGeneration: generation === 0 ? { $exists: false } : generation },
      { $set: { replayGeneration: generation + 1 } },
    );
    return r.modifiedCount === 1;
  }

  /**
   * One page of failed originals (not replays) created since `since`, oldest first, after the
   * `after` key (createdAt, then id): keyset paging, so pages neither repeat nor skip while new
   * deliveries arrive. Without bodies.
   */
  async failedOriginalsSince(
    filter: { since: Date; merchantIdentifier?: string },
    after: { createdAt: Date; _id: string } | null,
    limit: number,
  ): Promise<WebhookDeliverySummary[]> {
    const query: Record<string, unknown> = {
      state: 'failed',
      replayOf: { $exists: false },
      createdAt: { $gte: filter.since },
    };
    if (filter.merchantIdentifier !== undefined) query.merchantIdentifier = filter.merchantIdentifier;
    if (after) {
      query.$or = [{ createdAt: { $gt: after.createdAt } }, { createdAt: after.createdAt, _id: { $gt: after._id } }];
    }
    return this.deliveries
      .find(query, { projection: { body: 0, bodySealed: 0 } })
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  async find(deliveryId: string): Promise<WebhookDelivery | null> {
    const doc = await this.deliveries.findOne({ _id: deliveryId });
    return doc ? this.toDelivery(doc) : null;
  }

  /**
   * The merchant's failed deliveries created in [from, until), oldest first, at most `limit`, without
   * their bodies: a range read of the index merchant_created (the dashboard's overview).
   */
  async failedBetween(
    merchantIdentifier: string,
    from: Date,
    until: Date,
    limit: number,
  ): Promise<Omit<WebhookDelivery, 'body'>[]> {
    return await this.deliveries
      .find(
        { merchantIdentifier, createdAt: { $gte: from, $lt: until }, state: 'failed' },
        { projection: { body: 0, bodySealed: 0 } },
      )
      .sort({ createdAt: 1 })
      .limit(limit)
      .toArray();
  }

  /**
   * Deliveries matching the filter, newest first. An operator listing: it scans the collection,
   * which the store cannot index beyond _id (docs/contributors/store.md); `limit` bounds the answer. Bodies
   * are left out (never shown, never decrypted in bulk).
   */
  async list(filter: DeliveryFilter, limit: number): Promise<WebhookDeliverySummary[]> {
    const query: Record<string, unknown> = {};
    if (filter.merchantIdentifier !== undefined) query.merchantIdentifier = filter.merchantIdentifier;
    if (filter.state !== undefined) query.state = filter.state;
    if (filter.createdSince !== undefined) query.createdAt = { $gte: filter.createdSince };
    return this.deliveries
      .find(query, { projection: { body: 0, bodySealed: 0 } })
      .sort({ createdAt: -1 })
      .limit(limit)
      .toArray();
  }
}
