import type { Collection, Db } from 'mongodb';
import type { CheckoutPaymentMode } from '../domain/checkout';
import type { CheckoutEntry } from '../domain/checkout-return';
import { isDuplicateKeyError } from './mongo';

/**
 * A hosted checkout: found by its page token (`_id`), the capability the payer's browser holds. The
 * order itself is the transaction of its orderId; this keeps what the page and the return need.
 */
export interface Checkout {
  _id: string;
  merchantIdentifier: string;
  orderId: string;
  /** Which entry it came from: decides the fields of the return. */
  entry: CheckoutEntry;
  /** Where the payer's browser is sent back (the request's, or the merchant's default at the time). */
  returnUrl: string;
  paymentMode: CheckoutPaymentMode | null;
  bankid: string | null;
  createdAt: Date;
  /** When the final result was first shown with its self-submitting return form (it is submitted once). */
  returnOfferedAt?: Date;
}

export class CheckoutRepository {
  private readonly checkouts: Collection<Checkout>;

  constructor(db: Db) {
    this.checkouts = db.collection<Checkout>('checkouts');
  }

  /** Stores the checkout unless its token is stored already; returns the one stored. */
  async insertOrFind(c: Checkout): Promise<Checkout> {
    try {
      await this.checkouts.insertOne(c);
      return c;
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const existing = await this.findByToken(c._id);
      if (!existing) throw e;
      return existing;
    }
  }

  async findByToken(token: string): Promise<Checkout | null> {
    return this.checkouts.findOne({ _id: token });
  }

  /** Marks the return as offered; true for the one call that marked it (conditional on `_id`, atomic). */
  async markReturnOffered(token: string, at: Date): Promise<boolean> {
    const r = await this.checkouts.updateOne(
      { _id: token, returnOfferedAt: { $exists: false } },
      { $set: { returnOfferedAt: at } },
    );
    return r.modifiedCount === 1;
  }
}
