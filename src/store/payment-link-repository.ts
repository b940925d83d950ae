import type { Collection, Db, Document } from 'mongodb';
import type { PaymentLink } from '../domain/payment-link';
import { PayerDataCipher, type PayerFieldContext } from '../domain/payer-data';
import { isDuplicateKeyError } from './mongo';
import { duplicateIndexes } from './order-id-repository';
import { sealClearField } from './seal-clear-field';
import type { NewTransaction } from './transaction-repository';

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
 * A link as stored: the payer's mobile sealed for this link (`customerMobileSealed`, absent when
 * none was given); links stored before it was encrypted hold `customerMobile` in clear instead
 * (read as is, rewritten at start-up). Nothing queries the mobile: no lookup hash is kept.
 */
type PaymentLinkDoc = Omit<PaymentLink, 'customerMobile'> & { customerMobile?: string | null; customerMobileSealed?: string };

/**
 * As stored: the plan as JSON text, one field (the embedded store writes a long string far faster
 * than the thousands of fields of 500 entries), sealed (`planSealed`: it holds the payers' emails,
 * mobiles and addresses). Batches claimed before plans were kept have neither hash nor plan: their id
 * is simply used; those claimed before plans were sealed hold `plan` in clear (rewritten at start-up).
 */
interface PaymentLinkBatchDoc {
  _id: string;
  createdAt: Date;
  requestHash?: string;
  plan?: string;
  planSealed?: string;
}

const linkContext = (link: { _id: string; merchantIdentifier: string }): PayerFieldContext => ({
  merchantIdentifier: link.merchantIdentifier,
  field: 'customerMobile',
  documentId: link._id,
});
/**
 * A batch document holds no merchant field; its `_id` starts with the merchant. The sealed plan is
 * bound to the whole `_id`, and its merchant is read from it the same way when sealing and opening.
 */
const batchContext = (_id: string): PayerFieldContext => ({
  merchantIdentifier: _id.slice(0, _id.indexOf(':')),
  field: 'plan',
  documentId: _id,
});

/** The dates of a plan, which its JSON text holds as ISO strings. */
const PLAN_DATES = new Set(['createdAt', 'payerDeadline']);
const planFromJson = (text: string): PlannedLinkEntry[] =>
  JSON.parse(text, (key, value: unknown) =>
    PLAN_DATES.has(key) && typeof value === 'string' ? new Date(value) : value,
  ) as PlannedLinkEntry[];

/**
 * The payment_links collection, and payment_link_batches whose `_id` (`<merchant>:<batchId>`) makes
 * a batch id usable once per merchant. The link's order itself is the transaction of its orderId.
 */
export class PaymentLinkRepository {
  private readonly links: Collection<PaymentLinkDoc>;
  private readonly batches: Collection<PaymentLinkBatchDoc>;
  private readonly cipher: PayerDataCipher;

  constructor(db: Db, masterKey: string) {
    this.links = db.collection<PaymentLinkDoc>('payment_links');
    this.batches = db.collection<PaymentLinkBatchDoc>('payment_link_batches');
    this.cipher = new PayerDataCipher(masterKey);
  }

  private toDoc({ customerMobile, ...rest }: PaymentLink): PaymentLinkDoc {
    return customerMobile === null
      ? rest
      : { ...rest, customerMobileSealed: this.cipher.seal(customerMobile, linkContext(rest)) };
  }

  /** The link as the gateway knows it, the mobile opened (stored in clear before: as is). */
  private toLink = ({ customerMobile, customerMobileSealed, ...rest }: PaymentLinkDoc): PaymentLink => ({
    ...rest,
    customerMobile:
      customerMobileSealed !== undefined ? this.cipher.open(customerMobileSealed, linkContext(rest)) : (customerMobile ?? null),
  });

  /**
   * Seals the mobiles of links and the plans of batches stored before they were encrypted (at
   * start-up; conditional on the clear value, idempotent). Returns how many documents it rewrote.
   */
  async migratePayerDataAtRest(): Promise<number> {
    const links = await sealClearField(this.links as unknown as Collection<Document>, 'customerMobile', (at, mobile) => ({
      customerMobileSealed: this.cipher.seal(mobile, linkContext(at)),
    }));
    const batches = await sealClearField(this.batches as unknown as Collection<Document>, 'plan', (at, plan) => ({
      planSealed: this.cipher.seal(plan, batchContext(at._id)),
    }));
    return links + batches;
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
      const planSealed = this.cipher.seal(JSON.stringify(batch.entries), batchContext(_id));
      await this.batches.insertOne({ _id, createdAt: at, requestHash: batch.requestHash, planSealed });
      return batch;
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const claimed = await this.batches.findOne({ _id });
      if (!claimed) throw e;
      const plan = claimed.planSealed !== undefined ? this.cipher.open(claimed.planSealed, batchContext(_id)) : claimed.plan;
      if (claimed.requestHash === undefined || plan === undefined) return null;
      return { requestHash: claimed.requestHash, entries: planFromJson(plan) };
    }
  }

  /** Inserts links; a link already stored (an earlier try of the same batch) stays as it is. */
  async insert(links: PaymentLink[]): Promise<void> {
    if (links.length === 0) return;
    await this.links
      .insertMany(
        links.map((l) => this.toDoc(l)),
        { ordered: false },
      )
      .catch((e: unknown) => void duplicateIndexes(e));
  }

  /** The merchant's links created in [from, until), oldest first, at most `limit` (index merchant_created). */
  async createdBetween(merchantIdentifier: string, from: Date, until: Date, limit: number): Promise<PaymentLink[]> {
    return this.links
      .find({ merchantIdentifier, createdAt: { $gte: from, $lt: until } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .map(this.toLink)
      .toArray();
  }

  async findByToken(token: string): Promise<PaymentLink | null> {
    const doc = await this.links.findOne({ _id: token });
    return doc ? this.toLink(doc) : null;
  }
}
