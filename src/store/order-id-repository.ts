import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';

import { orderKey, type OrderRef } from '../domain/order-ref';

export { orderKey, type OrderRef };

/**
 * Which collection an orderId's order lives in: `order` the transactions (sandbox payments, QR
 * orders, payment links, mandate debits), `mandate` the mandates.
 */
export type OrderIdHolder = 'order' | 'mandate';

/** A claim on an orderId: who holds it, and (reserved) for which transaction alone. */
export interface OrderIdClaim {
  holder: OrderIdHolder;
  /** The txnId of the order that claimed it (a mandate's is the one its orderId keeps). */
  txnId: string;
  /** Held for the transaction `txnId` only, before it exists (a mandate's first debit). */
  reserved?: true;
}

type ClaimDoc = OrderIdClaim & { _id: string };

/**
 * One orderId namespace per merchant across every kind of order (design.md, Transactions and
 * states). Orders live in two collections, so neither's primary key alone can refuse a mandate and
 * a QR racing for one orderId: each first inserts its claim here, keyed like the orders
 * (`<merchantIdentifier>:<orderId>`), and the primary key's refusal is the atomic arbiter. Within one
 * holder the collection's own key decides (the same order repeated, or another of that collection).
 * A claim is never removed: a crash between it and the order's insert leaves the orderId held by
 * its holder, where the merchant's retry finds it.
 */
export class OrderIdRepository {
  private readonly claims: Collection<ClaimDoc>;

  constructor(db: Db) {
    this.claims = db.collection<ClaimDoc>('order_ids');
  }

  /** Claims the orderId; `mayUse` when the claim is this one's or its holder's (and not reserved for another txnId). */
  async claim(order: OrderRef, wanted: OrderIdClaim): Promise<{ mayUse: boolean; claim: OrderIdClaim }> {
    try {
      await this.claims.insertOne({ _id: orderKey(order), ...wanted });
      return { mayUse: true, claim: wanted };
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const held = await this.claims.findOne({ _id: orderKey(order) });
      if (!held) throw e;
      const { _id, ...claim } = held;
      return { mayUse: mayUse(claim, wanted), claim };
    }
  }

  /** Claims each orderId not claimed yet, in one unordered insert (a backfill): those claimed keep their claim. */
  async claimUnclaimed(claims: (OrderRef & OrderIdClaim)[]): Promise<void> {
    if (claims.length === 0) return;
    const docs = claims.map(({ merchantIdentifier, orderId, ...claim }): ClaimDoc => ({
      _id: orderKey({ merchantIdentifier, orderId }),
      ...claim,
    }));
    await this.claims.insertMany(docs, { ordered: false }).catch((e: unknown) => void duplicateIndexes(e));
  }

  /** Claims many orderIds for orders of the transactions collection in one unordered insert; per order, `mayUse`. */
  async claimOrders(orders: (OrderRef & { txnId: string })[]): Promise<boolean[]> {
    if (orders.length === 0) return [];
    const docs = orders.map((o): ClaimDoc => ({ _id: orderKey(o), holder: 'order', txnId: o.txnId }));
    let taken: number[];
    try {
      await this.claims.insertMany(docs, { ordered: false });
      return orders.map(() => true);
    } catch (e) {
      taken = duplicateIndexes(e);
    }
    const held = new Map(
      (await this.claims.find({ _id: { $in: taken.map((i) => docs[i]._id) } }).toArray()).map((d) => [d._id, d]),
    );
    const usable = (doc: ClaimDoc) => {
      const claim = held.get(doc._id);
      return claim !== undefined && mayUse(claim, doc);
    };
    const refused = new Set(taken.filter((i) => !usable(docs[i])));
    return orders.map((_, i) => !refused.has(i));
  }
}

/**
 * A held claim lets the wanted order through when they share a holder, unless a reservation is
 * involved: then only the reserved transaction itself (a reservation over an order's claim fails).
 */
function mayUse(held: OrderIdClaim, wanted: OrderIdClaim): boolean {
  if (held.holder !== wanted.holder) return false;
  if (!held.reserved && !wanted.reserved) return true;
  return held.reserved === true && held.txnId === wanted.txnId;
}

/** The indexes an unordered insertMany refused as duplicates; any other failure is thrown on. */
export function duplicateIndexes(e: unknown): number[] {
  const errors = (e as { writeErrors?: { index: number; code: number }[] | { index: number; code: number } }).writeErrors;
  const list = Array.isArray(errors) ? errors : errors ? [errors] : [];
  if (list.length === 0 || list.some((w) => w.code !== 11000)) throw e;
  return list.map((w) => w.index);
}
