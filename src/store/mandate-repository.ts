import type { Collection, Db, Document } from 'mongodb';
import type { Mandate, MandateState } from '../domain/mandate';
import { firstDebitOrderIdOf, firstDebitTxnId } from '../domain/mandate-first-debit';
import { PayerDataCipher, type PayerFieldContext } from '../domain/payer-data';
import { isDuplicateKeyError } from './mongo';
import { sealClearField } from './seal-clear-field';
import { orderKey, OrderIdRepository, type OrderRef } from './order-id-repository';

/**
 * As stored: the payer's VPA sealed for this mandate (`payerVpaSealed`) with its keyed hash for
 * lookups (`payerVpaHash`); mandates stored before carry `payerVpa` in clear until migrated.
 */
type MandateDoc = Omit<Mandate, 'payerVpa'> & {
  _id: string;
  payerVpa?: string;
  payerVpaSealed?: string;
  payerVpaHash?: string;
  /** Debit attempts at the bank now: attempt txnId -> the end of its lease (claimDebitAtBank). */
  debitsAtBank?: Record<string, Date>;
};

const vpaContext = (doc: { _id: string; merchantIdentifier: string }): PayerFieldContext => ({
  merchantIdentifier: doc.merchantIdentifier,
  field: 'payerVpa',
  documentId: doc._id,
});

/**
 * The mandates collection, keyed like transactions by `<merchantIdentifier>:<orderId>`. The mandate
 * workflow owns the state; this is its queryable projection, written only forward.
 */
export class MandateRepository {
  private readonly mandates: Collection<MandateDoc>;
  private readonly orderIds: OrderIdRepository;
  private readonly cipher: PayerDataCipher;

  constructor(db: Db, masterKey: string) {
    this.mandates = db.collection<MandateDoc>('mandates');
    this.orderIds = new OrderIdRepository(db);
    this.cipher = new PayerDataCipher(masterKey);
  }

  private sealedVpa(doc: { _id: string; merchantIdentifier: string }, payerVpa: string) {
    return {
      payerVpaSealed: this.cipher.seal(payerVpa, vpaContext(doc)),
      payerVpaHash: this.cipher.lookupHash(doc.merchantIdentifier, 'vpa', payerVpa),
    };
  }

  private toDoc({ payerVpa, ...m }: Mandate): MandateDoc {
    const _id = orderKey(m);
    return { _id, ...m, ...this.sealedVpa({ _id, merchantIdentifier: m.merchantIdentifier }, payerVpa) };
  }

  /** The mandate as the gateway knows it; throws if its VPA was sealed for another mandate. */
  private toMandate = ({
    _id,
    payerVpa,
    payerVpaSealed,
    payerVpaHash: _hash,
    debitsAtBank: _atBank,
    ...rest
  }: MandateDoc): Mandate => ({
    ...rest,
    payerVpa: payerVpaSealed !== undefined ? this.cipher.open(payerVpaSealed, vpaContext({ _id, ...rest })) : payerVpa!,
  });

  /**
   * Seals the VPAs of mandates stored before they were encrypted (at start-up, idempotent): each is
   * rewritten only if it still holds the clear VPA read. Returns how many it rewrote.
   */
  async migratePayerDataAtRest(): Promise<number> {
    return sealClearField(this.mandates as unknown as Collection<Document>, 'payerVpa', (at, vpa) => this.sealedVpa(at, vpa));
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
      await this.mandates.insertOne(this.toDoc(m));
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
    return doc ? this.toMandate(doc) : null;
  }

  /** The merchant's mandates created in [from, until), oldest first, at most `limit` (index merchant_created). */
  async createdBetween(merchantIdentifier: string, from: Date, until: Date, limit: number): Promise<Mandate[]> {
    const docs = await this.mandates
      .find({ merchantIdentifier, createdAt: { $gte: from, $lt: until } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(this.toMandate);
  }

  /**
   * Mandates still CREATED since before `before`: their workflow may have been lost (the sweep).
   * Never swept first, then the longest unswept, so mandates that rightly wait for their payer are
   * revisited in turn and never crowd an orphan out of a run's `limit` (index state_swept_created).
   */
  async findCreatedBefore(before: Date, limit: number): Promise<Mandate[]> {
    const docs = await this.mandates
      .find({ state: 'CREATED', createdAt: { $lt: before } })
      .sort({ sweptAt: 1, createdAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(this.toMandate);
  }

  /** Notes that the sweep ensured these mandates' workflows (see findCreatedBefore). */
  async markSwept(mandates: OrderRef[], at: Date): Promise<void> {
    if (mandates.length === 0) return;
    await this.mandates.updateMany({ _id: { $in: mandates.map(orderKey) }, state: 'CREATED' }, { $set: { sweptAt: at } });
  }

  /** Moves the mandate to `state` if it is in one of `from`; true when this call changed it. */
  async setState(order: OrderRef, state: MandateState, from: readonly MandateState[], at: Date): Promise<boolean> {
    const r = await this.mandates.updateOne(
      { _id: orderKey(order), state: { $in: [...from] } },
      { $set: { state, updatedAt: at } },
    );
    return r.modifiedCount === 1;
  }

  /**
   * The fence between a debit and a revoke (or any end): a debit attempt is marked at the bank on
   * the mandate's own document, in one write that requires it ACTIVE, before the bank is called.
   * Ending the mandate (setState) is one write too, so once it has committed no attempt can be
   * marked; an attempt marked before it is waited for (latestDebitAtBank) before the end is
   * acknowledged. The mark is a lease that ends at `until`, so an attempt whose worker died never
   * holds an end back for longer. False: the mandate is not ACTIVE, and the bank must not be called.
   */
  async claimDebitAtBank(order: OrderRef, attemptTxnId: string, until: Date): Promise<boolean> {
    const r = await this.mandates.updateOne(
      { _id: orderKey(order), state: 'ACTIVE' },
      { $set: { [`debitsAtBank.${attemptTxnId}`]: until } },
    );
    return r.matchedCount === 1;
  }

  /** The attempt is back from the bank (answered or failed): it no longer holds the mandate's end. */
  async releaseDebitAtBank(order: OrderRef, attemptTxnId: string): Promise<void> {
    await this.mandates.updateOne({ _id: orderKey(order) }, { $unset: { [`debitsAtBank.${attemptTxnId}`]: '' } });
  }

  /** The latest lease end of the debit attempts at the bank that have not ended by `at`, or null. */
  async latestDebitAtBank(order: OrderRef, at: Date): Promise<Date | null> {
    const doc = await this.mandates.findOne({ _id: orderKey(order) }, { projection: { debitsAtBank: 1 } });
    const leases = Object.values(doc?.debitsAtBank ?? {}).filter((until) => until > at);
    return leases.length ? new Date(Math.max(...leases.map((d) => d.getTime()))) : null;
  }
}
