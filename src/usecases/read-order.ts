import { toStatusMandateRecord, toStatusOrderRecord, type StatusOrderRecord } from '../domain/status-record';
import type { MandateRepository } from '../store/mandate-repository';
import type { OrderRef, TransactionRepository } from '../store/transaction-repository';

/**
 * The order an orderId names, as the status API shows it: a transaction (any kind of payment, a
 * mandate debit) or a mandate, read by its create orderId. One namespace per merchant, so at most one.
 */
export async function readOrder(
  deps: { transactions: TransactionRepository; mandates: MandateRepository },
  order: OrderRef,
): Promise<StatusOrderRecord | null> {
  const txn = await deps.transactions.findByOrder(order);
  if (txn) return toStatusOrderRecord(txn);
  const mandate = await deps.mandates.findByOrder(order);
  return mandate ? toStatusMandateRecord(mandate) : null;
}
