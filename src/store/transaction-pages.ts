import type { Collection, Document, Filter, FindCursor, Sort } from 'mongodb';
import type { SortKey } from '../domain/page-keysets';
import type { Transaction } from '../domain/transaction';
import { TxnStatus, type TxnStatusName } from '../domain/txn-status';
import { LATEST_DATE, type TransactionDoc } from './transaction-doc';

export type { SortKey };

/**
 * `field` in [from, until), and after `after` in the order (field, txnId) when given. The range
 * starts at the keyset's date, so the store seeks there in the index and reads on; the ties on
 * that date are settled by txnId.
 */
function afterKeyset(field: 'createdAt' | 'successAt', from: Date, until: Date, after?: SortKey): Filter<TransactionDoc> {
  if (!after) return { [field]: { $gte: from, $lt: until } };
  return {
    [field]: { $gte: after.at > from ? after.at : from, $lt: until },
    $and: [{ $or: [{ [field]: { $gt: after.at } }, { txnId: { $gt: after.txnId } }] }],
  };
}

/**
 * The many-transaction reads of the ledger, bulk and dashboard search pages and of the settlement
 * engine (TransactionRepository delegates to it).
 */
export class TransactionPages {
  constructor(
    private readonly txns: Collection<TransactionDoc>,
    private readonly toTransaction: (doc: TransactionDoc) => Transaction,
  ) {}

  /** The settlement engine's reads (settlement-claim-repository.ts): payer data opened, at most `limit`. */
  async findMatching(filter: Filter<Document>, sort: Sort, limit: number, projection?: Document): Promise<Transaction[]> {
    const docs = await this.txns
      .find(filter as Filter<TransactionDoc>, projection ? { projection } : {})
      .sort(sort)
      .limit(limit)
      .toArray();
    return docs.map(this.toTransaction);
  }

  /**
   * A ledger page: the merchant's transactions initiated in [from, until), oldest first then by
   * txnId (index merchant_created), `limit` of them after `skip`. A cursor, so a page streams.
   */
  ledgerPage(q: {
    merchantIdentifier: string;
    from: Date;
    until: Date;
    statuses: TxnStatusName[];
    includeDelayedSuccess: boolean;
    skip: number;
    limit: number;
    /** Continue after this record's sort key (where the previous page ended) instead of skipping. */
    after?: SortKey;
  }): FindCursor<Transaction> {
    const filter: Filter<TransactionDoc> = {
      merchantIdentifier: q.merchantIdentifier,
      ...afterKeyset('createdAt', q.from, q.until, q.after),
    };
    if (q.statuses.length < Object.keys(TxnStatus).length) filter.status = { $in: q.statuses };
    if (!q.includeDelayedSuccess) filter.delayedSuccess = { $ne: true };
    return this.page(filter, { createdAt: 1, txnId: 1 }, q.skip, q.limit);
  }

  /** A bulk page: the merchant's transactions that succeeded in [from, until), by success time then txnId. */
  bulkPage(q: {
    merchantIdentifier: string;
    from: Date;
    until: Date;
    statuses: TxnStatusName[];
    skip: number;
    limit: number;
    /** As ledgerPage's. */
    after?: SortKey;
  }): FindCursor<Transaction> {
    const filter: Filter<TransactionDoc> = {
      merchantIdentifier: q.merchantIdentifier,
      ...afterKeyset('successAt', q.from, q.until, q.after),
      status: { $in: q.statuses },
    };
    return this.page(filter, { successAt: 1, txnId: 1 }, q.skip, q.limit);
  }

  /**
   * Whether any of the merchant's transactions whose `field` lies in [from, upTo] was written at or
   * after `since` (every write stamps updatedAt): if none was, the records before a page's keyset
   * are the ones that were there when the keyset was taken, and the page after it is the page the
   * plain skip would read. One index search of the merchant's recent writes (merchant_updated).
   */
  async writtenSince(q: { merchantIdentifier: string; field: 'createdAt' | 'successAt'; from: Date; upTo: Date; since: Date }) {
    const written = await this.txns.findOne(
      {
        merchantIdentifier: q.merchantIdentifier,
        // Bounded on both sides so that the embedded store searches the index (docs/contributors/store.md).
        updatedAt: { $gte: q.since, $lt: LATEST_DATE },
        [q.field]: { $gte: q.from, $lte: q.upTo },
      },
      { projection: { _id: 1 }, sort: { updatedAt: 1 } },
    );
    return written !== null;
  }

  /**
   * A dashboard search page: the merchant's transactions created in [from, until), oldest first then
   * by txnId, `limit` of them after the keyset cursor `after` (the last row of the page before). The
   * range starts at the cursor's createdAt, so the store seeks there in merchant_created and reads
   * on: nothing before the cursor is read or skipped, whatever page this is. `where` narrows what
   * is read (status, kind); the store applies it to the rows of the range.
   */
  searchPage(q: {
    merchantIdentifier: string;
    from: Date;
    until: Date;
    after?: { createdAt: Date; txnId: string };
    where?: Document[];
    limit: number;
  }): FindCursor<Transaction> {
    const and = [...(q.where ?? [])] as Filter<TransactionDoc>[];
    if (q.after) and.push({ $or: [{ createdAt: { $gt: q.after.createdAt } }, { txnId: { $gt: q.after.txnId } }] });
    const filter: Filter<TransactionDoc> = {
      merchantIdentifier: q.merchantIdentifier,
      createdAt: { $gte: q.after && q.after.createdAt > q.from ? q.after.createdAt : q.from, $lt: q.until },
      ...(and.length ? { $and: and } : {}),
    };
    return this.page(filter, { createdAt: 1, txnId: 1 }, 0, q.limit);
  }

  private page(filter: Filter<TransactionDoc>, sort: Sort, skip: number, limit: number): FindCursor<Transaction> {
    return this.txns
      .find(filter, { projection: { _id: 0 } })
      .sort(sort)
      .skip(skip)
      .limit(limit)
      .batchSize(Math.min(limit, 1000))
      .map(this.toTransaction);
  }
}
