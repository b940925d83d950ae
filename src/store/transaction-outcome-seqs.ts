import type { Collection } from 'mongodb';
import { orderKey, type OrderRef } from '../domain/order-ref';
import type { TransactionDoc } from './transaction-doc';

/** The numbers of an order's latest outcome and latest chargeback change (0: none yet, or written before they were kept). */
export interface OrderChangeSeqs {
  outcomeSeq: number;
  chargebackVersion: number;
}

/**
 * The numbers of each order's latest changes the merchant is told of (Transaction.outcomeSeq,
 * counted by the write that records each outcome, and Transaction.chargebackVersion, written with
 * each chargeback change), read alone before every attempt of a call that reports one
 * (webhook-supersession.ts).
 */
export class TransactionOutcomeSeqs {
  constructor(private readonly txns: Collection<TransactionDoc>) {}

  /** The order's latest numbers; null: no such order. */
  async of(order: OrderRef): Promise<OrderChangeSeqs | null> {
    const doc = await this.txns.findOne({ _id: orderKey(order) }, { projection: { outcomeSeq: 1, chargebackVersion: 1 } });
    return doc ? { outcomeSeq: doc.outcomeSeq ?? 0, chargebackVersion: doc.chargebackVersion ?? 0 } : null;
  }
}
