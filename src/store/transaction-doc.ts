import type { PayerDataCipher } from '../domain/payer-data';
import { PaymentResponse } from '../domain/response-codes';
import type { FigureContribution } from '../domain/daily-figures';
import type { Transaction } from '../domain/transaction';
import type { TxnStatusName } from '../domain/txn-status';
import { orderKey } from './order-id-repository';
import { openBuyer, sealBuyer, type BuyerDetails } from './sealed-buyer';
import { openInstrument, sealInstrument, type StoredInstrument } from './sealed-instrument';

/**
 * Stored with the order's natural key as `_id` (`<merchantIdentifier>:<orderId>`): the primary key
 * itself makes an order unique per merchant, and every order lookup is a primary-key lookup. The
 * instrument's payer data (VPA, masked card, card id) is sealed for this order (sealed-instrument.ts),
 * and so are the buyer's name, email and address, together as `buyerSealed` (sealed-buyer.ts).
 * Nothing queries those: no keyed hash is kept for them. Orders stored before they were sealed hold
 * them in clear instead (read as is, rewritten at start-up).
 */
export type TransactionDoc = Omit<Transaction, 'instrument' | keyof BuyerDetails> &
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
export interface SweepQueue {
  sweepLane: 'unswept' | 'swept';
  sweepDueAt: Date;
}
export const SWEEP_QUEUE_FIELDS = { sweepLane: '', sweepDueAt: '' } as const;

/** The sweep queue's fields for an order written at `at` into `status`: set while Pending, else removed. */
export function sweepQueueUpdate(status: TxnStatusName, at: Date): { $set?: SweepQueue; $unset?: typeof SWEEP_QUEUE_FIELDS } {
  return status === 'Pending' ? { $set: { sweepLane: 'unswept', sweepDueAt: at } } : { $unset: SWEEP_QUEUE_FIELDS };
}

/** The earliest date the embedded store compares as a date in an index search (13 digits of epoch ms). */
export const EARLIEST_DATE = new Date(1e12);

/** The latest date the embedded store compares as a date in an index search (13 digits of epoch ms). */
export const LATEST_DATE = new Date(Date.UTC(2286, 0, 1));

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

/** The document as stored: payer data sealed. */
export function toDoc(cipher: PayerDataCipher, t: Transaction): TransactionDoc {
  const { buyerName: _name, buyerEmail: _email, ipAddress: _ip, ...rest } = t;
  return {
    _id: orderKey(t),
    ...rest,
    buyerSealed: sealBuyer(cipher, t, t),
    instrument: sealInstrument(cipher, t, t.instrument),
    ...sweepQueueUpdate(t.status, t.updatedAt).$set,
  };
}

/** The transaction as the gateway knows it, payer data opened (stored in clear before: as is). */
export const docToTransaction = (
  cipher: PayerDataCipher,
  {
    _id,
    buyerSealed,
    sweepLane: _lane,
    sweepDueAt: _due,
    countedInFigures: _counted,
    ...rest
  }: Omit<TransactionDoc, '_id'> & { _id?: string },
): Transaction =>
  ({
    ...rest,
    ...(buyerSealed !== undefined ? openBuyer(cipher, rest, buyerSealed) : {}),
    instrument: openInstrument(cipher, rest, rest.instrument),
  }) as Transaction;

/** A new order as first stored: Pending, nothing answered yet. */
export function pending(t: NewTransaction): Transaction {
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
