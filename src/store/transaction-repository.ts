import type { Collection, Db, Document, Filter, FindCursor, Sort } from 'mongodb';
import { PayerDataCipher } from '../domain/payer-data';
import { PaymentResponse } from '../domain/response-codes';
import type { PaymentOutcome, RefundEntry, Transaction } from '../domain/transaction';
import { statesThatMayBecome, TxnStatus, type TxnStatusName } from '../domain/txn-status';
import { isDuplicateKeyError } from './mongo';
import { duplicateIndexes, orderKey, OrderIdRepository, type OrderIdClaim, type OrderRef } from './order-id-repository';
import { BUYER_FIELDS, openBuyer, sealBuyer, type BuyerDetails } from './sealed-buyer';
import { holdsPayerDataInClear, openInstrument, sealInstrument, type StoredInstrument } from './sealed-instrument';

export { orderKey, type OrderRef } from './order-id-repository';

/** The fields of a transaction the dashboard's overview counts. */
export type OverviewRow = Pick<Transaction, 'createdAt' | 'status' | 'amountPaise' | 'successAt'>;

/**
 * Stored with the order's natural key as `_id` (`<merchantIdentifier>:<orderId>`): the primary key
 * itself makes an order unique per merchant, and every order lookup is a primary-key lookup. The
 * instrument's payer data (VPA, masked card, card id) is sealed for this order (sealed-instrument.ts),
 * and so are the buyer's name, email and address, together as `buyerSealed` (sealed-buyer.ts).
 * Nothing queries those: no keyed hash is kept for them. Orders stored before they were sealed hold
 * them in clear instead (read as is, rewritten at start-up).
 */
type TransactionDoc = Omit<Transaction, 'instrument' | keyof BuyerDetails> &
  Partial<BuyerDetails> & { _id: string; instrument: StoredInstrument; buyerSealed?: string };

export type NewTransaction = Omit<
  Transaction,
  | 'status'
  | 'responseCode'
  | 'responseDescription'
  | 'bankRefNum'
  | 'authCode'
  | 'markedFailedByService'
  | 'updatedAt'
  | 'completedAt'
  | 'successAt'
  | 'refunds'
  | 'version'
>;

export class TransactionNotFoundError extends Error {
  override readonly name = 'TransactionNotFoundError';
}

/**
 * What creating an order found: it created it, or the order holding its orderId is a transaction
 * (returned), or the orderId is held outside this collection (a mandate, or reserved for a mandate's
 * first debit: `heldBy`).
 */
export type CreatePendingResult =
  | { created: boolean; transaction: Transaction; heldBy?: undefined }
  | { created: false; transaction: null; heldBy: OrderIdClaim };

/**
 * The transactions collection. Every write is idempotent: creation is keyed by the order and never
 * overwrites, and outcome updates only move a document forward along the allowed transitions,
 * bumping `version`, so a retried or replayed activity is harmless. Creation claims the orderId in
 * the merchant's one namespace first (OrderIdRepository), so no mandate can hold it too.
 */
export class TransactionRepository {
  private readonly txns: Collection<TransactionDoc>;
  private readonly orderIds: OrderIdRepository;
  private readonly cipher: PayerDataCipher;

  constructor(db: Db, masterKey: string) {
    this.txns = db.collection<TransactionDoc>('transactions');
    this.orderIds = new OrderIdRepository(db);
    this.cipher = new PayerDataCipher(masterKey);
  }

  /** The document as stored: payer data sealed. */
  private toDoc(t: Transaction): TransactionDoc {
    const { buyerName: _name, buyerEmail: _email, ipAddress: _ip, ...rest } = t;
    return {
      _id: orderKey(t),
      ...rest,
      buyerSealed: sealBuyer(this.cipher, t, t),
      instrument: sealInstrument(this.cipher, t, t.instrument),
    };
  }

  /** The transaction as the gateway knows it, payer data opened (stored in clear before: as is). */
  private toTransaction = ({ _id, buyerSealed, ...rest }: Omit<TransactionDoc, '_id'> & { _id?: string }): Transaction =>
    ({
      ...rest,
      ...(buyerSealed !== undefined ? openBuyer(this.cipher, rest, buyerSealed) : {}),
      instrument: openInstrument(this.cipher, rest, rest.instrument),
    }) as Transaction;

  /**
   * Seals the buyer details (name, email, address) of transactions stored before they were
   * encrypted (at start-up, idempotent), as migratePayerDataAtRest does the instrument: each is
   * rewritten only if unchanged since read (`version`, left alone). Returns how many it rewrote.
   */
  async migrateBuyerDataAtRest(): Promise<number> {
    const clear = { buyerSealed: { $exists: false } };
    const projection = { _id: 1, merchantIdentifier: 1, orderId: 1, version: 1, buyerName: 1, buyerEmail: 1, ipAddress: 1 };
    const unset = Object.fromEntries(BUYER_FIELDS.map((k) => [k, '' as const]));
    let rewritten = 0;
    for (let pass = 0; pass < 3; pass++) {
      let missed = 0;
      // A cursor: a large store is read in batches, never whole into memory.
      for await (const doc of this.txns.find(clear as Filter<TransactionDoc>, { projection })) {
        const buyerSealed = sealBuyer(this.cipher, doc, {
          buyerName: doc.buyerName ?? null,
          buyerEmail: doc.buyerEmail ?? null,
          ipAddress: doc.ipAddress ?? null,
        });
        const r = await this.txns.updateOne(
          { _id: doc._id, version: doc.version, buyerSealed: { $exists: false } } as Filter<TransactionDoc>,
          { $set: { buyerSealed }, $unset: unset },
        );
        rewritten += r.modifiedCount;
        missed += 1 - r.modifiedCount;
      }
      if (missed === 0) break;
    }
    return rewritten;
  }

  /**
   * Seals the payer data of transactions stored before it was encrypted (at start-up, idempotent).
   * Each is rewritten only if unchanged since read (`version`, which the rewrite leaves alone: the
   * order itself did not change); one changed meanwhile is read again. Returns how many it rewrote.
   */
  async migratePayerDataAtRest(): Promise<number> {
    const clear = { 'instrument.kind': { $in: ['UPI', 'UPI_MANDATE', 'CARD'] }, 'instrument.sealed': { $exists: false } };
    const projection = { _id: 1, merchantIdentifier: 1, orderId: 1, instrument: 1, version: 1 };
    let rewritten = 0;
    for (let pass = 0; pass < 3; pass++) {
      let missed = 0;
      // A cursor: a large store is read in batches, never whole into memory.
      for await (const doc of this.txns.find(clear as Filter<TransactionDoc>, { projection })) {
        if (!holdsPayerDataInClear(doc.instrument)) continue;
        const instrument = sealInstrument(this.cipher, doc, doc.instrument as Transaction['instrument']);
        const r = await this.txns.updateOne(
          { _id: doc._id, version: doc.version, 'instrument.sealed': { $exists: false } } as Filter<TransactionDoc>,
          { $set: { instrument } },
        );
        rewritten += r.modifiedCount;
        missed += 1 - r.modifiedCount;
      }
      if (missed === 0) break;
    }
    return rewritten;
  }

  /**
   * Holds an orderId for the transaction `txnId` before it exists (a mandate's first debit, created
   * once the payer approves): only createPending of that txnId may use it. False when it is taken.
   */
  async reserveOrderId(order: OrderRef, txnId: string): Promise<boolean> {
    return (await this.orderIds.claim(order, { holder: 'order', txnId, reserved: true })).mayUse;
  }

  /** Creates the Pending transaction of an order, or returns the one that already holds its orderId. */
  async createPending(t: NewTransaction): Promise<CreatePendingResult> {
    const { mayUse, claim } = await this.orderIds.claim(t, { holder: 'order', txnId: t.txnId });
    if (!mayUse) return { created: false, transaction: null, heldBy: claim };
    const transaction = pending(t);
    // Insert, and on the primary key's refusal read the order that exists. (Not an upsert with
    // $setOnInsert: FerretDB 1.24 drops null and empty-array fields from it.)
    try {
      await this.txns.insertOne(this.toDoc(transaction));
      return { transaction, created: true };
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const existing = await this.findByOrder(t);
      if (!existing) throw e;
      return { transaction: existing, created: false };
    }
  }

  /**
   * Creates many Pending orders in one unordered insert (a payment link batch); returns, per order
   * in the same order, whether it was created or its orderId was taken already.
   */
  async createPendingMany(ts: NewTransaction[]): Promise<boolean[]> {
    const claimed = await this.orderIds.claimOrders(ts);
    const free = ts.filter((_, i) => claimed[i]);
    if (free.length === 0) return ts.map(() => false);
    let taken = new Set<number>();
    try {
      await this.txns.insertMany(
        free.map((t) => this.toDoc(pending(t))),
        { ordered: false },
      );
    } catch (e) {
      taken = new Set(duplicateIndexes(e));
    }
    const created = new Set(free.filter((_, i) => !taken.has(i)));
    return ts.map((t) => created.has(t));
  }

  async findByOrder(order: OrderRef): Promise<Transaction | null> {
    const doc = await this.txns.findOne({ _id: orderKey(order) });
    return doc ? this.toTransaction(doc) : null;
  }

  /** The settlement engine's reads (settlement-claim-repository.ts): payer data opened, at most `limit`. */
  async findMatching(filter: Filter<Document>, sort: Sort, limit: number): Promise<Transaction[]> {
    const docs = await this.txns
      .find(filter as Filter<TransactionDoc>)
      .sort(sort)
      .limit(limit)
      .toArray();
    return docs.map(this.toTransaction);
  }

  /** Transactions by gateway txnId, one query per batch (index txnId_unique, on either store). */
  async findByTxnIds(txnIds: string[]): Promise<Transaction[]> {
    if (txnIds.length === 0) return [];
    return (await this.txns.find({ txnId: { $in: txnIds } }).toArray()).map(this.toTransaction);
  }

  /**
   * Pending orders not touched since `before`: candidates for the sweep. Never swept first, then
   * the longest unswept: orders that rightly wait for days (payment links, QRs) are revisited in
   * turn and can never crowd a new orphan out of a run's `limit`.
   */
  async findPendingSince(before: Date, limit: number): Promise<Transaction[]> {
    const docs = await this.txns
      .find({ status: 'Pending', updatedAt: { $lt: before } })
      .sort({ sweptAt: 1, updatedAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(this.toTransaction);
  }

  /** Notes that the sweep ensured these orders' workflows (see findPendingSince). */
  async markSwept(orders: OrderRef[], at: Date): Promise<void> {
    if (orders.length === 0) return;
    await this.txns.updateMany({ _id: { $in: orders.map(orderKey) }, status: 'Pending' }, { $set: { sweptAt: at } });
  }

  /**
   * Orders with a refund still PENDING and untouched since `before`: candidates for the sweep. As
   * findPendingSince: never swept first, then the longest unswept, so refunds that rightly wait for
   * the bank are revisited in turn and never crowd an orphaned refund out of a run's `limit`.
   */
  async findWithPendingRefundsSince(before: Date, limit: number): Promise<Transaction[]> {
    const docs = await this.txns
      .find({ 'refunds.status': 'PENDING', updatedAt: { $lt: before } })
      .sort({ refundsSweptAt: 1, updatedAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(this.toTransaction);
  }

  /** Notes that the sweep ensured these orders' refund workflows (see findWithPendingRefundsSince). */
  async markRefundsSwept(orders: OrderRef[], at: Date): Promise<void> {
    if (orders.length === 0) return;
    await this.txns.updateMany(
      { _id: { $in: orders.map(orderKey) }, 'refunds.status': 'PENDING' },
      { $set: { refundsSweptAt: at } },
    );
  }

  /**
   * Applies a payment outcome to the order's transaction `txnId` if it may still move to it.
   * Returns the document as it stands afterwards and whether this call changed it (false on a
   * replay or a refused transition). `from` narrows the states it may leave.
   */
  async recordOutcome(
    order: OrderRef & { txnId: string },
    outcome: PaymentOutcome,
    at: Date,
    from: readonly TxnStatusName[] = statesThatMayBecome(outcome.status),
  ): Promise<{ applied: boolean; transaction: Transaction }> {
    const allowed = from.filter((s) => statesThatMayBecome(outcome.status).includes(s));
    const updated = await this.txns.findOneAndUpdate(
      { _id: orderKey(order), txnId: order.txnId, status: { $in: allowed } },
      {
        $set: {
          ...outcome,
          ...(outcome.instrument ? { instrument: sealInstrument(this.cipher, order, outcome.instrument) } : {}),
          updatedAt: at,
          completedAt: at,
          ...(outcome.status === 'Success' ? { successAt: at } : {}),
        },
        $inc: { version: 1 },
      },
      { returnDocument: 'after' },
    );
    if (updated) return { applied: true, transaction: this.toTransaction(updated) };
    const current = await this.findByOrder(order);
    if (!current || current.txnId !== order.txnId)
      throw new TransactionNotFoundError(`transaction ${order.txnId} of order ${orderKey(order)} does not exist`);
    return { applied: false, transaction: current };
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
  }): FindCursor<Transaction> {
    const filter: Filter<TransactionDoc> = {
      merchantIdentifier: q.merchantIdentifier,
      createdAt: { $gte: q.from, $lt: q.until },
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
  }): FindCursor<Transaction> {
    const filter: Filter<TransactionDoc> = {
      merchantIdentifier: q.merchantIdentifier,
      successAt: { $gte: q.from, $lt: q.until },
      status: { $in: q.statuses },
    };
    return this.page(filter, { successAt: 1, txnId: 1 }, q.skip, q.limit);
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

  /**
   * What the dashboard's overview counts of each transaction created in [from, until): one range
   * read of merchant_created in its order, only the fields it needs.
   */
  figuresBetween(merchantIdentifier: string, from: Date, until: Date): FindCursor<OverviewRow> {
    return this.txns
      .find(
        { merchantIdentifier, createdAt: { $gte: from, $lt: until } },
        { projection: { _id: 0, createdAt: 1, status: 1, amountPaise: 1, successAt: 1 } },
      )
      .sort({ createdAt: 1 })
      .batchSize(1000)
      .map((doc) => doc as OverviewRow);
  }

  /** The merchant's transaction of a gateway txnId (index txnId_unique); another merchant's: null. */
  async findByTxnIdOfMerchant(merchantIdentifier: string, txnId: string): Promise<Transaction | null> {
    const doc = await this.txns.findOne({ txnId, merchantIdentifier });
    return doc ? this.toTransaction(doc) : null;
  }

  /** The merchant's orders of these orderIds, one primary-key read (a page of payment links). */
  async findByOrderIds(merchantIdentifier: string, orderIds: string[]): Promise<Transaction[]> {
    if (orderIds.length === 0) return [];
    const docs = await this.txns
      .find({ _id: { $in: orderIds.map((orderId) => orderKey({ merchantIdentifier, orderId })) } })
      .toArray();
    return docs.map(this.toTransaction);
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

  /** Clears the reconciliation's pending follow-ups once they are all started. */
  async clearLateFollowUps(order: OrderRef): Promise<void> {
    await this.txns.updateOne({ _id: orderKey(order), lateFollowUpsPending: true }, { $unset: { lateFollowUpsPending: '' } });
  }

  /**
   * Compare-and-set on the whole document: applies `change` to the order as it was read at
   * `version`, only if nobody changed it since. Returns null when someone did (the caller re-reads).
   */
  async updateIfUnchanged(
    order: OrderRef,
    version: number,
    change: { set: Partial<Omit<Transaction, 'version' | keyof BuyerDetails>>; pushRefund?: RefundEntry },
  ): Promise<Transaction | null> {
    const set = change.set.instrument
      ? { ...change.set, instrument: sealInstrument(this.cipher, order, change.set.instrument) }
      : change.set;
    const updated = await this.txns.findOneAndUpdate(
      { _id: orderKey(order), version },
      { $set: set, $inc: { version: 1 }, ...(change.pushRefund ? { $push: { refunds: change.pushRefund } } : {}) },
      { returnDocument: 'after' },
    );
    return updated ? this.toTransaction(updated) : null;
  }
}

/** A new order as first stored: Pending, nothing answered yet. */
function pending(t: NewTransaction): Transaction {
  return {
    ...t,
    status: 'Pending',
    responseCode: PaymentResponse.pending.code,
    responseDescription: PaymentResponse.pending.description,
    bankRefNum: null,
    authCode: null,
    markedFailedByService: false,
    updatedAt: t.createdAt,
    completedAt: null,
    successAt: null,
    refunds: [],
    version: 1,
  };
}
