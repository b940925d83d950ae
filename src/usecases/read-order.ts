import { toStatusMandateRecord, toStatusOrderRecord, type StatusOrderRecord } from '../domain/status-record';
import type { Transaction } from '../domain/transaction';
import type { MandateRepository } from '../store/mandate-repository';
import type { OrderRef, TransactionRepository } from '../store/transaction-repository';

type ReadOrderDeps = { transactions: TransactionRepository; mandates: MandateRepository };

/**
 * The order an orderId names, as the status API shows it: a transaction (any kind of payment, a
 * mandate debit) or a mandate, read by its create orderId. One namespace per merchant, so at most one.
 */
export async function readOrder(deps: ReadOrderDeps, order: OrderRef): Promise<StatusOrderRecord | null> {
  // Only what the record shows: nothing to decrypt but a card's masked number and id.
  const txn = await deps.transactions.findStatusSource(order);
  if (txn) return toStatusOrderRecord(txn);
  const mandate = await deps.mandates.findByOrder(order);
  return mandate ? toStatusMandateRecord(mandate) : null;
}

/** The same, with the transaction behind the record (null for a mandate). */
export async function findOrder(
  deps: ReadOrderDeps,
  order: OrderRef,
): Promise<{ record: StatusOrderRecord; transaction: Transaction | null } | null> {
  const txn = await deps.transactions.findByOrder(order);
  if (txn) return { record: toStatusOrderRecord(txn), transaction: txn };
  const mandate = await deps.mandates.findByOrder(order);
  return mandate ? { record: toStatusMandateRecord(mandate), transaction: null } : null;
}
