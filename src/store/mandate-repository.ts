import type { Collection, Db } from 'mongodb';
import type { Mandate, MandateState } from '../domain/mandate';
import { isDuplicateKeyError } from './mongo';
import { orderKey, type OrderRef } from './transaction-repository';

type MandateDoc = Mandate & { _id: string };
const toMandate = ({ _id, ...rest }: MandateDoc): Mandate => rest;

/**
 * The mandates collection, keyed like transactions by `<merchantIdentifier>:<orderId>`. The mandate
 * workflow owns the state; this is its queryable projection, written only forward.
 */
export class MandateRepository {
  private readonly mandates: Collection<MandateDoc>;

  constructor(db: Db) {
    this.mandates = db.collection<MandateDoc>('mandates');
  }

  /** Inserts a new mandate, or returns the one that holds its orderId already. */
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
