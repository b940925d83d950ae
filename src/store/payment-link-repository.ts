import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';
import { duplicateIndexes } from './order-id-repository';
import type { NewTransaction } from './transaction-repository';

/** A payment link: found by its unguessable token (`_id`), the capability a payer holds. */
export interface PaymentLink {
  _id: string;
  merchantIdentifier: string;
  orderId: string;
  batchId: string;
  invoiceNumber: string | null;
  internalNotes: string | null;
  customerMobile: string | null;
  createdAt: Date;
}

/** What one entry of a batch becomes, decided once when the batch is claimed. */
export type PlannedLinkEntry =
  | { problem: string }
  | {
      /** The link's order, with the txnId that makes it this batch's. */
      order: NewTransaction;
      link: PaymentLink;
      /** The entry as the answer echoes it. */
      echo: Record<string, unknown>;
      qrImgSize: { width: number; height: number } | null;
    };

/**
 * A claimed batch id (`<merchant>:<batchId>`) with the request it was claimed for (a hash of its
 * entries) and the plan of every entry, so a retry of the same request completes the same batch.
 */
export interface PaymentLinkBatch {
  requestHash: string;
  entries: PlannedLinkEntry[];
}

/**
 * As stored: the plan as JSON text, one field (the embedded store writes a long string far faster
 * than the thousands of fields of 500 entries). Batches claimed before plans were kept have neither
 * hash nor plan: their id is simply used.
 */
interface PaymentLinkBatchDoc {
  _id: string;
  createdAt: Date;
  requestHash?: string;
  plan?: string;
}

/** The dates of a plan, which its JSON text holds as ISO strings. */
const PLAN_DATES = new Set(['createdAt', 'payerDeadline']);
const planFromJson = (text: string): PlannedLinkEntry[] =>
  JSON.parse(text, (key, value: unknown) => (PLAN_DATES.has(key) && typeof value === 'string' ? new Date(value) : value));

/**
 * The payment_links collection, and payment_link_batches whose `_id` (`<merchant>:<batchId>`) makes
 * a batch id usable once per merchant. The link's order itself is the transaction of its orderId.
 */
export class PaymentLinkRepository {
  private readonly links: Collection<PaymentLink>;
  private readonly batches: Collection<PaymentLinkBatchDoc>;

  constructor(db: Db) {
    this.links = db.collection<PaymentLink>('payment_links');
    this.batches = db.collection<PaymentLinkBatchDoc>('payment_link_batches');
  }

  /**
   * Claims a batch id for the merchant with its plan. When it was claimed before: the batch as
   * first claimed, or null for a batch claimed before plans were kept.
   */
  async claimBatch(
    merchantIdentifier: string,
    batchId: string,
    batch: PaymentLinkBatch,
    at: Date,
  ): Promise<PaymentLinkBatch | null> {
    const _id = `${merchantIdentifier}:${batchId}`;
    try {
      await this.batches.insertOne({ _id, createdAt: at, requestHash: batch.requestHash, plan: JSON.stringify(batch.entries) });
      return batch;
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const claimed = await this.batches.findOne({ _id });
      if (!claimed) throw e;
      if (claimed.requestHash === undefined || claimed.plan === undefined) return null;
      return { requestHash: claimed.requestHash, entries: planFromJson(claimed.plan) };
    }
  }

  /** Inserts links; a link already stored (an earlier try of the same batch) stays as it is. */
  async insert(links: PaymentLink[]): Promise<void> {
    if (links.length === 0) return;
    await this.links.insertMany(links, { ordered: false }).catch((e: unknown) => void duplicateIndexes(e));
  }

  /** The merchant's links created in [from, until), oldest first, at most `limit` (index merchant_created). */
  async createdBetween(merchantIdentifier: string, from: Date, until: Date, limit: number): Promise<PaymentLink[]> {
    return this.links
      .find({ merchantIdentifier, createdAt: { $gte: from, $lt: until } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .toArray();
  }

  async findByToken(token: string): Promise<PaymentLink | null> {
    return this.links.findOne({ _id: token });
  }
}
