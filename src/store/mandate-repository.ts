import type { Collection, Db } from 'mongodb';
import type { Mandate, MandateState } from '../domain/mandate';
import { firstDebitOrderIdOf, firstDebitTxnId } from '../domain/mandate-first-debit';
import { isDuplicateKeyError } from './mongo';
import { orderKey, OrderIdRepository, type OrderRef } from './order-id-repository';

type MandateDoc = Mandate & { _id: string };
const toMandate = ({ _id, ...rest }: MandateDoc): Mandate => rest;

/**
 * The mandates collection, keyed like transactions by `<merchantIdentifier>:<orderId>`. The mandate
 * workflow owns the state; this is its queryable projection, written only forward.
 */
export class MandateRepository {
  private readonly mandates: Collection<MandateDoc>;
  private readonly orderIds: OrderIdRepository;

  constructor(db: Db) {
    this.mandates = db.collection<MandateDoc>('mandates');
    this.orderIds = new OrderIdRepository(db);
  }

  /**
   * Claims the orderId for a mandate in the merchant's one namespace, before insert. Returns the
   * txnId the mandate is to carry (the first claim's, so a retry after a crash keeps the same one),
   * or null when an order of another kind holds the orderId.
   */
  async claimOrderId(order: OrderRef, txnId: string): Promise<string | null> {
    const { mayUse, claim } = await this.orderIds.claim(order, { holder: 'mandate', txnId });
    return mayUse ? claim.txnId : null;
  }

  /**
   * Claims the orderIds of mandates stored before orderIds were claimed (at start-up, like
   * backfillApiKeys): the mandate's own, and its first debit's `<orderId>-first`. Mandates stored
   * since claimed theirs and carry firstDebitOrderId (null without a first debit): not read again.
   */
  async backfillOrderIdClaims(): Promise<void> {
    const legacy = await this.mandates
      .find(
        { firstDebitOrderId: { $exists: false } },
        { projection: { merchantIdentifier: 1, orderId: 1, txnId: 1, firstDebit: 1 } },
      )
      .toArray();
    await this.orderIds.claimUnclaimed(
      legacy.flatMap((m) => [
        { merchantIdentifier: m.merchantIdentifier, orderId: m.orderId, holder: 'mandate' as const, txnId: m.txnId },
        ...(m.firstDebit
          ? [
              {
                merchantIdentifier: m.merchantIdentifier,
                orderId: firstDebitOrderIdOf(m),
                holder: 'order' as const,
                txnId: firstDebitTxnId(m.txnId),
                reserved: true as const,
              },
            ]
          : []),
      ]),
    );
  }

  /** Inserts a new mandate (its orderId claimed), or returns the one that holds its orderId already. */
  async insert(m: Mandate): Promise<{ mandate: Mandate; created: boolean }> {
    try {
      await this.mandates.insertOne({ _id: orderKey(m), ...m });
      return { mandate: m, created: true };
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const existing = await this.findByOrder(m);
      if (!existing) throw e;
      return { mandate: existing, created: false };
    }
  }

  async findByOrder(order: OrderRef): Promise<Mandate | null> {
    const doc = await this.mandates.findOne({ _id: orderKey(order) });
    return doc ? toMandate(doc) : null;
  }

  /** Mandates still CREATED since before `before`: their workflow may have been lost (the sweep). */
  async findCreatedBefore(before: Date, limit: number): Promise<Mandate[]> {
    const docs = await this.mandates
      .find({ state: 'CREATED', createdAt: { $lt: before } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toMandate);
  }

  /** Moves the mandate to `state` if it is in one of `from`; true when this call changed it. */
  async setState(order: OrderRef, state: MandateState, from: readonly MandateState[], at: Date): Promise<boolean> {
    const r = await this.mandates.updateOne(
      { _id: orderKey(order), state: { $in: [...from] } },
      { $set: { state, updatedAt: at } },
    );
    return r.modifiedCount === 1;
  }
}
