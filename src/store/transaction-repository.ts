import type { Collection, Db, Document, Filter, FindCursor, Sort } from 'mongodb';
import { PayerDataCipher } from '../domain/payer-data';
import { PaymentResponse } from '../domain/response-codes';
import type { FigureContribution } from '../domain/daily-figures';
import type { PaymentOutcome, RefundEntry, Transaction } from '../domain/transaction';
import { statesThatMayBecome, TxnStatus, type TxnStatusName } from '../domain/txn-status';
import { DailyFiguresRepository } from './daily-figures-repository';
import { isDuplicateKeyError } from './mongo';
import { duplicateIndexes, orderKey, OrderIdRepository, type OrderIdClaim, type OrderRef } from './order-id-repository';
import { BUYER_FIELDS, openBuyer, sealBuyer, type BuyerDetails } from './sealed-buyer';
import { holdsPayerDataInClear, openInstrument, sealInstrument, type StoredInstrument } from './sealed-instrument';

export { orderKey, type OrderRef } from './order-id-repository';

/**
 * Stored with the order's natural key as `_id` (`<merchantIdentifier>:<orderId>`): the primary key
 * itself makes an order unique per merchant, and every order lookup is a primary-key lookup. The
 * instrument's payer data (VPA, masked card, card id) is sealed for this order (sealed-instrument.ts),
 * and so are the buyer's name, email and address, together as `buyerSealed` (sealed-buyer.ts).
 * Nothing queries those: no keyed hash is kept for them. Orders stored before they were sealed hold
 * them in clear instead (read as is, rewritten at start-up).
 */
type TransactionDoc = Omit<Transaction, 'instrument' | keyof BuyerDetails> &
  Partial<BuyerDetails> & {
    _id: string;
    instrument: StoredInstrument;
    buyerSealed?: string;
    /** What the order has added to its day's dashboard figures (daily-figures-repository.ts). */
    countedInFigures?: FigureContribution;
  } & Partial<SweepQueue>;

/**
 * Where a Pending order waits for the pending-payment sweep, kept only while it is Pending (index
 * sweep_lane_due): `unswept` since its last write (`sweepDueAt` = updatedAt), or `swept` at
 * `sweepDueAt` (= sweptAt). The sweep reads the unswept lane, then the swept one, each in the order
 * of sweepDueAt, from the index: it reads what it takes, not every Pending order.
 */
interface SweepQueue {
  sweepLane: 'unswept' | 'swept';
  sweepDueAt: Date;
}
const SWEEP_QUEUE_FIELDS = { sweepLane: '', sweepDueAt: '' } as const;

/** The sweep queue's fields for an order written at `at` into `status`: set while Pending, else removed. */
function sweepQueueUpdate(status: TxnStatusName, at: Date): { $set?: SweepQueue; $unset?: typeof SWEEP_QUEUE_FIELDS } {
  return status === 'Pending' ? { $set: { sweepLane: 'unswept', sweepDueAt: at } } : { $unset: SWEEP_QUEUE_FIELDS };
}

/** The earliest date the embedded store compares as a date in an index search (13 digits of epoch ms). */
const EARLIEST_DATE = new Date(1e12);

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

/** A record's place in a page order: its date (createdAt or successAt), then its txnId. */
export interface SortKey {
  at: Date;
  txnId: string;
}

/** The latest date the embedded store compares as a date in an index search (13 digits of epoch ms). */
const LATEST_DATE = new Date(Date.UTC(2286, 0, 1));

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
  } as Filter<TransactionDoc>;
}

/** A transaction as read without its buyer's details (findByOrderWithoutBuyer). */
export type TransactionWithoutBuyer = Omit<Transaction, keyof BuyerDetails>;
const WITHOUT_BUYER = Object.fromEntries(['buyerSealed', ...BUYER_FIELDS].map((k) => [k, 0 as const]));

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
  /** Every write below also keeps the order's day of the dashboard figures up to date. */
  private readonly figures: DailyFiguresRepository;

  constructor(db: Db, masterKey: string) {
    this.txns = db.collection<TransactionDoc>('transactions');
    this.figures = new DailyFiguresRepository(db);
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
      ...sweepQueueUpdate(t.status, t.updatedAt).$set,
    };
  }

  /** The transaction as the gateway knows it, payer data opened (stored in clear before: as is). */
  private toTransaction = ({
    _id,
    buyerSealed,
    sweepLane: _lane,
    sweepDueAt: _due,
    countedInFigures: _counted,
    ...rest
  }: Omit<TransactionDoc, '_id'> & { _id?: string }): Transaction =>
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
      // Inserted as counted in its day's figures, then added there: a crash between the two leaves
      // the order out of them until a rebuild (daily-figures-repository.ts).
      await this.txns.insertOne({ ...this.toDoc(transaction), countedInFigures: DailyFiguresRepository.NEW_ORDER });
      await this.figures.addNewOrders([transaction]);
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
        free.map((t) => ({ ...this.toDoc(pending(t)), countedInFigures: DailyFiguresRepository.NEW_ORDER })),
        { ordered: false },
      );
    } catch (e) {
      taken = new Set(duplicateIndexes(e));
    }
    const created = new Set(free.filter((_, i) => !taken.has(i)));
    await this.figures.addNewOrders([...created]);
    return ts.map((t) => created.has(t));
  }

  async findByOrder(order: OrderRef): Promise<Transaction | null> {
    const doc = await this.txns.findOne({ _id: orderKey(order) });
    return doc ? this.toTransaction(doc) : null;
  }

  /**
   * The order's transaction without the buyer's name, email and address: neither read from the
   * store nor opened (an AES-GCM open per read). For the status API, which never shows them.
   */
  async findByOrderWithoutBuyer(order: OrderRef): Promise<TransactionWithoutBuyer | null> {
    const doc = await this.txns.findOne({ _id: orderKey(order) }, { projection: WITHOUT_BUYER });
    return doc ? this.toTransaction(doc) : null;
  }

  /**
   * The settlement engine's reads (settlement-claim-repository.ts), at most `limit`: without the
   * buyer's details, which a settlement never shows (neither read nor opened).
   */
  async findMatching(filter: Filter<Document>, sort: Sort, limit: number): Promise<TransactionWithoutBuyer[]> {
    const docs = await this.txns
      .find(filter as Filter<TransactionDoc>, { projection: WITHOUT_BUYER })
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
    // From the sweep queue's index (SweepQueue): the unswept lane in the order of their last write,
    // then the swept lane in the order of their last sweep (a swept order was untouched since before
    // an earlier `before`; updatedAt is checked all the same). Both ranges are bounded on both sides
    // so that the embedded store searches the index in its order and stops at the limit.
    const lane = (sweepLane: SweepQueue['sweepLane'], dueBefore: Date, n: number) =>
      this.txns
        .find({ sweepLane, sweepDueAt: { $gte: EARLIEST_DATE, $lt: dueBefore }, status: 'Pending', updatedAt: { $lt: before } })
        .sort({ sweepDueAt: 1, updatedAt: 1 })
        .limit(n)
        .toArray();
    const docs = await lane('unswept', before, limit);
    if (docs.length < limit) docs.push(...(await lane('swept', LATEST_DATE, limit - docs.length)));
    return docs.map(this.toTransaction);
  }

  /** Notes that the sweep ensured these orders' workflows (see findPendingSince): they go to the back of the queue. */
  async markSwept(orders: OrderRef[], at: Date): Promise<void> {
    if (orders.length === 0) return;
    await this.txns.updateMany(
      { _id: { $in: orders.map(orderKey) }, status: 'Pending' },
      { $set: { sweptAt: at, sweepLane: 'swept', sweepDueAt: at } },
    );
  }

  /**
   * Puts Pending orders stored before the sweep queue existed into it (at start-up, once per store:
   * runtime.ts), each as it would stand had it been written with it: swept at its sweptAt, or
   * unswept since its updatedAt. Conditional on the order still Pending and still outside the queue.
   * Returns how many it queued.
   */
  async queuePendingForSweep(): Promise<number> {
    const outside = { status: 'Pending', sweepLane: { $exists: false } } as Filter<TransactionDoc>;
    let queued = 0;
    for await (const doc of this.txns.find(outside, { projection: { _id: 1, updatedAt: 1, sweptAt: 1 } })) {
      const queue: SweepQueue = doc.sweptAt
        ? { sweepLane: 'swept', sweepDueAt: doc.sweptAt }
        : { sweepLane: 'unswept', sweepDueAt: doc.updatedAt };
      queued += (await this.txns.updateOne({ _id: doc._id, ...outside } as Filter<TransactionDoc>, { $set: queue }))
        .modifiedCount;
    }
    return queued;
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
   * Orders whose last chargeback change has no delivery started yet and that nobody touched since
   * `before`: candidates for the sweep, never swept first, then the longest unswept.
   */
  async findWithChargebackNoticeSince(before: Date, limit: number): Promise<Transaction[]> {
    const docs = await this.txns
      .find({ 'chargebackNotice.version': { $exists: true }, updatedAt: { $lt: before } })
      .sort({ chargebackNoticeSweptAt: 1, updatedAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(this.toTransaction);
  }

  /** Notes that the sweep visited these orders' chargeback notices (see findWithChargebackNoticeSince). */
  async markChargebackNoticesSwept(orders: OrderRef[], at: Date): Promise<void> {
    if (orders.length === 0) return;
    await this.txns.updateMany(
      { _id: { $in: orders.map(orderKey) }, 'chargebackNotice.version': { $exists: true } },
      { $set: { chargebackNoticeSweptAt: at } },
    );
  }

  /**
   * Clears the order's chargeback notice once its delivery is started, only if it is still the
   * change of `version` (a newer change's notice stays until its own delivery starts).
   */
  async clearChargebackNotice(order: OrderRef, version: number): Promise<void> {
    await this.txns.updateOne(
      { _id: orderKey(order), 'chargebackNotice.version': version },
      { $unset: { chargebackNotice: '', chargebackNoticeSweptAt: '' } },
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
        // Final: out of the sweep queue.
        $unset: SWEEP_QUEUE_FIELDS,
        $inc: { version: 1 },
      },
      { returnDocument: 'after' },
    );
    if (updated) {
      await this.figures.count(updated);
      return { applied: true, transaction: this.toTransaction(updated) };
    }
    const current = await this.txns.findOne({ _id: orderKey(order) });
    if (!current || current.txnId !== order.txnId)
      throw new TransactionNotFoundError(`transaction ${order.txnId} of order ${orderKey(order)} does not exist`);
    // A retry after a crash between the outcome's write and its count counts it now (else: no write).
    await this.figures.count(current);
    return { applied: false, transaction: this.toTransaction(current) };
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
    // A change of status moves the order into or out of the sweep queue.
    // (A Pending order written without a time is due at once: the sweep only ensures its workflow.)
    const queue = set.status ? sweepQueueUpdate(set.status, set.updatedAt ?? EARLIEST_DATE) : {};
    const updated = await this.txns.findOneAndUpdate(
      { _id: orderKey(order), version },
      {
        $set: { ...set, ...queue.$set },
        ...(queue.$unset ? { $unset: queue.$unset } : {}),
        $inc: { version: 1 },
        ...(change.pushRefund ? { $push: { refunds: change.pushRefund } } : {}),
      },
      { returnDocument: 'after' },
    );
    if (!updated) return null;
    await this.figures.count(updated);
    return this.toTransaction(updated);
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
