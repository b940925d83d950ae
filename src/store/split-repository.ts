import type { Collection, Db, UpdateFilter } from 'mongodb';
import type { TransactionSplit } from '../domain/transaction';

interface MerchantLinkDoc {
  _id: string;
  /** Set by an operator: the master merchant whose orders may be split to this (sub-)merchant. */
  masterMerchantIdentifier?: string;
  /** The master's own name for this sub-merchant (Zaakpay's custom identifier), unique per master. */
  masterCustomIdentifier?: string;
}

interface SplitTxnDoc {
  _id: string;
  txnId: string;
  status: string;
  split?: TransactionSplit;
  saleSettlementId?: string;
}

export type SplitWriteResult = 'recorded' | 'alreadySplit' | 'alreadySettled' | 'notPaid';

/**
 * Sub-merchant links (on the merchant documents) and the one-time split of an order (on its
 * transaction). The split is a conditional update on the transaction's `_id`, so it and the
 * settlement engine's claim of the sale (`saleSettlementId`) serialise on that one document.
 */
export class SplitRepository {
  private readonly merchants: Collection<MerchantLinkDoc>;
  private readonly txns: Collection<SplitTxnDoc>;

  constructor(db: Db) {
    this.merchants = db.collection<MerchantLinkDoc>('merchants');
    this.txns = db.collection<SplitTxnDoc>('transactions');
  }

  /**
   * Links (or with null unlinks) a sub-merchant to its master, under the master's own name for it
   * when given (a link without one removes an earlier name); false when the sub-merchant does not exist.
   */
  async linkToMaster(
    merchantIdentifier: string,
    masterMerchantIdentifier: string | null,
    customIdentifier: string | null = null,
  ): Promise<boolean> {
    const update: UpdateFilter<MerchantLinkDoc> =
      masterMerchantIdentifier === null
        ? { $unset: { masterMerchantIdentifier: '', masterCustomIdentifier: '' } }
        : customIdentifier === null
          ? { $set: { masterMerchantIdentifier }, $unset: { masterCustomIdentifier: '' } }
          : { $set: { masterMerchantIdentifier, masterCustomIdentifier: customIdentifier } };
    const r = await this.merchants.updateOne({ _id: merchantIdentifier }, update);
    return r.matchedCount === 1;
  }

  /** The master's sub-merchants named so (one read): custom identifier -> the merchantIdentifiers it names. */
  async subMerchantsByCustomIdentifier(master: string, customIdentifiers: string[]): Promise<Map<string, string[]>> {
    const docs = await this.merchants
      .find(
        { masterMerchantIdentifier: master, masterCustomIdentifier: { $in: customIdentifiers } },
        { projection: { masterCustomIdentifier: 1 } },
      )
      .toArray();
    const named = new Map<string, string[]>();
    for (const d of docs) named.set(d.masterCustomIdentifier!, [...(named.get(d.masterCustomIdentifier!) ?? []), d._id]);
    return named;
  }

  async masterOf(merchantIdentifier: string): Promise<string | null> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { masterMerchantIdentifier: 1 } });
    return doc?.masterMerchantIdentifier ?? null;
  }

  /** Which of these merchants exist (one read). */
  async existing(merchantIdentifiers: string[]): Promise<Set<string>> {
    const docs = await this.merchants.find({ _id: { $in: merchantIdentifiers } }, { projection: { _id: 1 } }).toArray();
    return new Set(docs.map((d) => d._id));
  }

  /** The links of several sub-merchants (one read): merchantIdentifier -> master (absent when unlinked). */
  async mastersOf(merchantIdentifiers: string[]): Promise<Map<string, string>> {
    const docs = await this.merchants
      .find({ _id: { $in: merchantIdentifiers } }, { projection: { masterMerchantIdentifier: 1 } })
      .toArray();
    return new Map(docs.filter((d) => d.masterMerchantIdentifier).map((d) => [d._id, d.masterMerchantIdentifier!]));
  }

  /**
   * Writes the split once, only on a paid order not yet claimed by a settlement; when the write
   * matched nothing, the order as it now stands says why.
   */
  async recordSplit(orderKey: string, txnId: string, split: TransactionSplit): Promise<SplitWriteResult> {
    const r = await this.txns.updateOne(
      { _id: orderKey, txnId, status: 'Success', split: { $exists: false }, saleSettlementId: { $exists: false } },
      { $set: { split } },
    );
    if (r.matchedCount === 1) return 'recorded';
    const now = await this.txns.findOne({ _id: orderKey }, { projection: { status: 1, split: 1, saleSettlementId: 1 } });
    if (now?.saleSettlementId !== undefined) return 'alreadySettled';
    if (now?.split !== undefined) return 'alreadySplit';
    return 'notPaid';
  }
}
