import { ORDER_ID_PATTERN } from './identifiers';
import type { Mandate } from './mandate';

/**
 * The orderIds a first debit may take, in order (design.md, Mandates and peak windows): `<orderId>-first` when
 * that fits the orderId rules (an orderId up to 58 characters), then `<txnid>-first` with the
 * mandate's txnid (bankPostData.txnid of the create answer). The first one free in the merchant's
 * namespace is held for the debit when the mandate is created. (The status API reads the mandate
 * itself by the create orderId.)
 */
export function firstDebitOrderIds(mandateOrderId: string, txnId: string): string[] {
  return [`${mandateOrderId}-first`, `${txnId}-first`].filter((id) => ORDER_ID_PATTERN.test(id));
}

/** The first debit's orderId of a mandate stored before it was kept: always `<orderId>-first` then. */
export const firstDebitOrderIdOf = (m: Pick<Mandate, 'orderId' | 'firstDebitOrderId'>) =>
  m.firstDebitOrderId ?? `${m.orderId}-first`;

/** The first debit's txnId: the mandate's with F appended. */
export const firstDebitTxnId = (mandateTxnId: string) => `${mandateTxnId}F`;
