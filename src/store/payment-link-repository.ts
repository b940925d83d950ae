import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';

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

/**
 * The payment_links collection, and payment_link_batches whose `_id` (`<merchant>:<batchId>`) makes
 * a batch id usable once per merchant. The link's order itself is the transaction of its orderId.
 */
export class PaymentLinkRepository {
  private readonly links: Collection<PaymentLink>;
  private readonly batches: Collection<{ _id: string; createdAt: Date }>;

  constructor(db: Db) {
    this.links = db.collection<PaymentLink>('payment_links');
    this.batches = db.collection('payment_link_batches');
  }

  /** Claims a batch id for the merchant; false when it was used before. */
  async claimBatch(merchantIdentifier: string, batchId: string, at: Date): Promise<boolean> {
    try {
      await this.batches.insertOne({ _id: `${merchantIdentifier}:${batchId}`, createdAt: at });
      return true;
    } catch (e) {
      if (isDuplicateKeyError(e)) return false;
      throw e;
    }
  }

  async insert(links: PaymentLink[]): Promise<void> {
    if (links.length > 0) await this.links.insertMany(links, { ordered: false });
  }

  async findByToken(token: string): Promise<PaymentLink | null> {
    return this.links.findOne({ _id: token });
  }
}
