import type { Collection, Db, Document, Filter, FindCursor, Sort } from 'mongodb';
import { PayerDataCipher } from '../domain/payer-data';
import { STATUS_SOURCE_FIELDS, type StatusSource } from '../domain/status-record';
import type { PaymentOutcome, RefundEntry, Transaction } from '../domain/transaction';
import { statesThatMayBecome, type TxnStatusName } from '../domain/txn-status';
import { DailyFiguresRepository } from './daily-figures-repository';
import { isDuplicateKeyError } from './mongo';
import { duplicateIndexes, orderKey, OrderIdRepository, type OrderIdClaim, type OrderRef } from './order-id-repository';
import { BUYER_FIELDS, sealBuyer, type BuyerDetails } from './sealed-buyer';
import { holdsPayerDataInClear, openShownInstrument, sealInstrument } from './sealed-instrument';
import {
  docToTransaction,
  EARLIEST_DATE,
  pending,
  SWEEP_QUEUE_FIELDS,
  sweepQueueUpdate,
  toDoc,
  type NewTransaction,
  type TransactionDoc,
} from './transaction-doc';
import { TransactionOutcomeSeqs } from './transaction-outcome-seqs';
import { TransactionPages } from './transaction-pages';
import { TransactionSweeps } from './transaction-sweeps';

export { orderKey, type OrderRef } from './order-id-repository';
export type { NewTransaction } from './transaction-doc';
export type { SortKey } from './transaction-pages';

/** A transaction as read without its buyer's details (the settlement engine's reads). */
export type TransactionWithoutBuyer = Omit<Transaction, keyof BuyerDetails>;
const WITHOUT_BUYER = Object.fromEntries(['buyerSealed', ...BUYER_FIELDS].map((k) => [k, 0 as const]));
const STATUS_SOURCE = Object.fromEntries(STATUS_SOURCE_FIELDS.map((k) => [k, 1 as const]));

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
  /** The sweeps' reads and marks, and the page and settlement reads (delegated to below). */
  private readonly sweeps: TransactionSweeps;
  private readonly pages: TransactionPages;
  readonly outcomeSeqs: TransactionOutcomeSeqs;

  constructor(db: Db, masterKey: string) {
    this.txns = db.collection<TransactionDoc>('transactions');
    this.figures = new DailyFiguresRepository(db);
    this.orderIds = new OrderIdRepository(db);
    this.cipher = new PayerDataCipher(masterKey);
    this.sweeps = new TransactionSweeps(this.txns, this.toTransaction);
    this.pages = new TransactionPages(this.txns, this.toTransaction);
    this.outcomeSeqs = new TransactionOutcomeSeqs(this.txns);
  }

  /** The transaction as the gateway knows it, payer data opened (stored in clear before: as is). */
  private toTransaction = (doc: Omit<TransactionDoc, '_id'> & { _id?: string }): Transaction =>
    docToTransaction(this.cipher, doc);

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
          { _id: doc._id, version: doc.version, buyerSealed: { $exists: false } },
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
          { _id: doc._id, version: doc.version, 'instrument.sealed': { $exists: false } },
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
      await this.txns.insertOne({ ...toDoc(this.cipher, transaction), countedInFigures: DailyFiguresRepository.NEW_ORDER });
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
        free.map((t) => ({ ...toDoc(this.cipher, pending(t)), countedInFigures: DailyFiguresRepository.NEW_ORDER })),
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
   * What the status API shows of the order's transaction, read alone (a projection): never the
   * buyer's details, and the instrument's sealed payer data opened only for a card, whose masked
   * number and id the record shows (a VPA it never shows). Each open is an AES-GCM decryption.
   */
  async findStatusSource(order: OrderRef): Promise<StatusSource | null> {
    const doc = await this.txns.findOne({ _id: orderKey(order) }, { projection: STATUS_SOURCE });
    return doc ? { ...doc, instrument: openShownInstrument(this.cipher, doc, doc.instrument) } : null;
  }

  /** The settlement engine's reads (TransactionPages.findMatching). */
  findMatching(filter: Filter<Document>, sort: Sort, limit: number): Promise<TransactionWithoutBuyer[]> {
    // Without the buyer's details, which a settlement never shows (neither read nor opened).
    return this.pages.findMatching(filter, sort, limit, WITHOUT_BUYER);
  }

  /** Transactions by gateway txnId, one query per batch (index txnId_unique, on either store). */
  async findByTxnIds(txnIds: string[]): Promise<Transaction[]> {
    if (txnIds.length === 0) return [];
    return (await this.txns.find({ txnId: { $in: txnIds } }).toArray()).map(this.toTransaction);
  }

  /** Pending orders not touched since `before`, for the sweep (TransactionSweeps.findPendingSince). */
  findPendingSince(before: Date, limit: number): Promise<Transaction[]> {
    return this.sweeps.findPendingSince(before, limit);
  }

  /** Sends these swept orders to the back of the sweep queue (TransactionSweeps.markSwept). */
  markSwept(orders: OrderRef[], at: Date): Promise<void> {
    return this.sweeps.markSwept(orders, at);
  }

  /** Queues Pending orders stored before the sweep queue existed (TransactionSweeps.queuePendingForSweep). */
  queuePendingForSweep(): Promise<number> {
    return this.sweeps.queuePendingForSweep();
  }

  /** Orders with a PENDING refund untouched since `before` (TransactionSweeps.findWithPendingRefundsSince). */
  findWithPendingRefundsSince(before: Date, limit: number): Promise<Transaction[]> {
    return this.sweeps.findWithPendingRefundsSince(before, limit);
  }

  /** Notes that the sweep ensured these orders' refund workflows (TransactionSweeps.markRefundsSwept). */
  markRefundsSwept(orders: OrderRef[], at: Date): Promise<void> {
    return this.sweeps.markRefundsSwept(orders, at);
  }

  /** Orders with an undelivered chargeback notice untouched since `before` (TransactionSweeps). */
  findWithChargebackNoticeSince(before: Date, limit: number): Promise<Transaction[]> {
    return this.sweeps.findWithChargebackNoticeSince(before, limit);
  }

  /** Notes that the sweep visited these orders' chargeback notices (TransactionSweeps). */
  markChargebackNoticesSwept(orders: OrderRef[], at: Date): Promise<void> {
    return this.sweeps.markChargebackNoticesSwept(orders, at);
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
   * replay or a refused transition). `from` narrows the states it may leave. A caller that knows
   * the order's amount (`known`, the payment workflow's) saves a write when the order is Pending:
   * the outcome's write claims the daily figures' change itself (claimInWrite). One that may have
   * recorded it already (`mayBeRecorded`, a retried activity) reads the order first: found moved
   * on, it is answered without the writes that would be refused.
   */
  async recordOutcome(
    order: OrderRef & { txnId: string },
    outcome: PaymentOutcome,
    at: Date,
    from: readonly TxnStatusName[] = statesThatMayBecome(outcome.status),
    known: { amountPaise?: number; mayBeRecorded?: boolean } = {},
  ): Promise<{ applied: boolean; transaction: Transaction }> {
    const allowed = from.filter((s) => statesThatMayBecome(outcome.status).includes(s));
    if (known.mayBeRecorded) {
      const current = await this.txns.findOne({ _id: orderKey(order) });
      if (current && current.txnId === order.txnId && !allowed.includes(current.status)) return this.notApplied(current);
    }
    const write = (also: { filter?: Filter<TransactionDoc>; set?: Document } = {}) =>
      this.txns.findOneAndUpdate(
        { _id: orderKey(order), txnId: order.txnId, status: { $in: allowed }, ...also.filter },
        {
          $set: {
            ...outcome,
            ...(outcome.instrument ? { instrument: sealInstrument(this.cipher, order, outcome.instrument) } : {}),
            updatedAt: at,
            completedAt: at,
            ...(outcome.status === 'Success' ? { successAt: at } : {}),
            ...also.set,
          },
          // Final: out of the sweep queue.
          $unset: SWEEP_QUEUE_FIELDS,
          $inc: { version: 1, outcomeSeq: 1 },
        },
        { returnDocument: 'after' },
      );
    const { amountPaise } = known;
    if (amountPaise !== undefined && allowed.length === 1 && allowed[0] === 'Pending') {
      const claim = DailyFiguresRepository.claimInWrite(
        { status: 'Pending', successAt: null, amountPaise },
        { status: outcome.status, successAt: outcome.status === 'Success' ? at : null, amountPaise },
      );
      const claimed = await write({ filter: { amountPaise, ...claim.filter }, set: claim.set });
      if (claimed) {
        await this.figures.addClaimed(claimed, claim.change);
        return { applied: true, transaction: this.toTransaction(claimed) };
      }
      // Not Pending any more, or counted otherwise than a Pending order (stored before daily
      // figures, or a crash mid-count): the plain write below, then count.
    }
    const updated = await write();
    if (updated) {
      await this.figures.count(updated);
      return { applied: true, transaction: this.toTransaction(updated) };
    }
    const current = await this.txns.findOne({ _id: orderKey(order) });
    if (!current || current.txnId !== order.txnId)
      throw new TransactionNotFoundError(`transaction ${order.txnId} of order ${orderKey(order)} does not exist`);
    return this.notApplied(current);
  }

  /** An outcome found recorded (or refused): the order as it stands, counted. */
  private async notApplied(current: TransactionDoc): Promise<{ applied: false; transaction: Transaction }> {
    // A retry after a crash between the outcome's write and its count counts it now (else: no write).
    await this.figures.count(current);
    return { applied: false, transaction: this.toTransaction(current) };
  }

  /** A ledger page of the merchant's transactions (TransactionPages.ledgerPage). */
  ledgerPage(q: Parameters<TransactionPages['ledgerPage']>[0]): FindCursor<Transaction> {
    return this.pages.ledgerPage(q);
  }

  /** A bulk page of the merchant's successful transactions (TransactionPages.bulkPage). */
  bulkPage(q: Parameters<TransactionPages['bulkPage']>[0]): FindCursor<Transaction> {
    return this.pages.bulkPage(q);
  }

  /** Whether a page's range was written since `since` (TransactionPages.writtenSince). */
  writtenSince(q: Parameters<TransactionPages['writtenSince']>[0]): Promise<boolean> {
    return this.pages.writtenSince(q);
  }

  /** A dashboard search page (TransactionPages.searchPage). */
  searchPage(q: Parameters<TransactionPages['searchPage']>[0]): FindCursor<Transaction> {
    return this.pages.searchPage(q);
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
