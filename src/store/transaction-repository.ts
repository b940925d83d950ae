import type { Collection, Db } from 'mongodb';
import type { PaymentOutcome, Transaction } from '../domain/transaction';
import { statesThatMayBecome, type TxnStatusName } from '../domain/txn-status';
import { isDuplicateKeyError } from './mongo';

type TransactionDoc = Omit<Transaction, 'txnId'> & { _id: string };

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

const toTransaction = ({ _id, ...rest }: TransactionDoc): Transaction => ({ txnId: _id, ...rest });

/**
 * The transactions collection. Every write is idempotent: creation is keyed by the unique
 * (merchant, orderId) index and never overwrites, and outcome updates only move a document forward
 * along the allowed transitions, bumping `version`, so a retried or replayed activity is harmless.
 */
export class TransactionRepository {
  private readonly txns: Collection<TransactionDoc>;

  constructor(db: Db) {
    this.txns = db.collection<TransactionDoc>('transactions');
  }

  /** Creates the Pending transaction of an order, or returns the one that already exists. */
  async createPending(
    t: NewTransaction,
    pending: { responseCode: string; responseDescription: string },
  ): Promise<{ transaction: Transaction; created: boolean }> {
    const { txnId, ...fields } = t;
    const doc: TransactionDoc = {
      _id: txnId,
      ...fields,
      status: 'Pending',
      responseCode: pending.responseCode,
      responseDescription: pending.responseDescription,
      bankRefNum: null,
      authCode: null,
      markedFailedByService: false,
      updatedAt: t.createdAt,
      completedAt: null,
      successAt: null,
      refunds: [],
      version: 1,
    };
    // Insert, and on the unique (merchant, orderId) index's refusal read the order that exists.
    // (Not an upsert with $setOnInsert: FerretDB 1.24 drops null and empty-array fields from it.)
    try {
      await this.txns.insertOne(doc);
      return { transaction: toTransaction(doc), created: true };
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const existing = await this.findByOrder(t.merchantIdentifier, t.orderId);
      if (!existing) throw e;
      return { transaction: existing, created: false };
    }
  }

  async findByOrder(merchantIdentifier: string, orderId: string): Promise<Transaction | null> {
    const doc = await this.txns.findOne({ merchantIdentifier, orderId });
    return doc ? toTransaction(doc) : null;
  }

  async findById(txnId: string): Promise<Transaction | null> {
    const doc = await this.txns.findOne({ _id: txnId });
    return doc ? toTransaction(doc) : null;
  }

  /**
   * Applies a payment outcome if the transaction may still move to it. Returns the document as it
   * stands afterwards and whether this call changed it (false on a replay or a refused transition).
   * `from` narrows the states it may leave (a payment's first outcome leaves only Pending).
   */
  async recordOutcome(
    txnId: string,
    outcome: PaymentOutcome,
    at: Date,
    from: readonly TxnStatusName[] = statesThatMayBecome(outcome.status),
  ): Promise<{ applied: boolean; transaction: Transaction }> {
    const allowed = from.filter((s) => statesThatMayBecome(outcome.status).includes(s));
    const updated = await this.txns.findOneAndUpdate(
      { _id: txnId, status: { $in: allowed } },
      {
        $set: {
          ...outcome,
          updatedAt: at,
          completedAt: at,
          ...(outcome.status === 'Success' ? { successAt: at } : {}),
        },
        $inc: { version: 1 },
      },
      { returnDocument: 'after' },
    );
    if (updated) return { applied: true, transaction: toTransaction(updated) };
    const current = await this.findById(txnId);
    if (!current) throw new Error(`transaction ${txnId} does not exist`);
    return { applied: false, transaction: current };
  }
}
