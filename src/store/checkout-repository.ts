import type { Collection, Db, Document } from 'mongodb';
import type { Checkout } from '../domain/checkout';
import { PayerDataCipher, type PayerFieldContext } from '../domain/payer-data';
import { isDuplicateKeyError } from './mongo';
import { sealClearField } from './seal-clear-field';

/**
 * A checkout as stored: `bankid` (for UPI collect the payer's VPA; for net banking a bank code,
 * sealed all the same: one form) sealed for this checkout as `bankidSealed`, absent when none was
 * sent. Checkouts stored before it was encrypted hold `bankid` in clear instead (read as is,
 * rewritten at start-up). Nothing queries it: no lookup hash is kept.
 */
type CheckoutDoc = Omit<Checkout, 'bankid'> & { bankid?: string | null; bankidSealed?: string };

const bankidContext = (c: { _id: string; merchantIdentifier: string }): PayerFieldContext => ({
  merchantIdentifier: c.merchantIdentifier,
  field: 'bankid',
  documentId: c._id,
});

export class CheckoutRepository {
  private readonly checkouts: Collection<CheckoutDoc>;
  private readonly cipher: PayerDataCipher;

  constructor(db: Db, masterKey: string) {
    this.checkouts = db.collection<CheckoutDoc>('checkouts');
    this.cipher = new PayerDataCipher(masterKey);
  }

  private toDoc({ bankid, ...rest }: Checkout): CheckoutDoc {
    return bankid === null ? rest : { ...rest, bankidSealed: this.cipher.seal(bankid, bankidContext(rest)) };
  }

  /** The checkout as the gateway knows it, bankid opened (stored in clear before: as is). */
  private toCheckout({ bankid, bankidSealed, ...rest }: CheckoutDoc): Checkout {
    return {
      ...rest,
      bankid: bankidSealed !== undefined ? this.cipher.open(bankidSealed, bankidContext(rest)) : (bankid ?? null),
    };
  }

  /** Seals the bankid of checkouts stored before it was encrypted (start-up, idempotent); how many it rewrote. */
  async migratePayerDataAtRest(): Promise<number> {
    return sealClearField(this.checkouts as unknown as Collection<Document>, 'bankid', (at, bankid) => ({
      bankidSealed: this.cipher.seal(bankid, bankidContext(at)),
    }));
  }

  /** Stores the checkout unless its token is stored already; returns the one stored. */
  async insertOrFind(c: Checkout): Promise<Checkout> {
    try {
      await this.checkouts.insertOne(this.toDoc(c));
      return c;
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      const existing = await this.findByToken(c._id);
      if (!existing) throw e;
      return existing;
    }
  }

  async findByToken(token: string): Promise<Checkout | null> {
    const doc = await this.checkouts.findOne({ _id: token });
    return doc ? this.toCheckout(doc) : null;
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
