import type { Transaction } from './transaction';
import type { TxnStatusName } from './txn-status';

export type LedgerStatus = 'SUCCESS' | 'FAILED' | 'PENDING';

export interface LedgerState {
  status: LedgerStatus;
  state: number;
  stateDescription: string;
}

/**
 * The ledger's `status`, `state` and `stateDescription` for every transaction status: the one table
 * (design.md, Transactions and states). The contract names 2 Processing, 6 Declined, 7 Captured and 22 Partial Refund
 * Initiated; the numbers from 23 on are the gateway's own for the states it does not enumerate.
 */
export const LEDGER_STATES: Record<TxnStatusName, LedgerState> = {
  Pending: { status: 'PENDING', state: 2, stateDescription: 'Processing' },
  Success: { status: 'SUCCESS', state: 7, stateDescription: 'Captured' },
  Failure: { status: 'FAILED', state: 6, stateDescription: 'Declined' },
  PartialRefund: { status: 'SUCCESS', state: 23, stateDescription: 'Partially Refunded' },
  Refund: { status: 'SUCCESS', state: 24, stateDescription: 'Refunded' },
  PartialChargeback: { status: 'SUCCESS', state: 25, stateDescription: 'Partial Chargeback' },
  Chargeback: { status: 'SUCCESS', state: 26, stateDescription: 'Chargeback' },
  PartialChargebackReverted: { status: 'SUCCESS', state: 27, stateDescription: 'Partial Chargeback Reverted' },
  ChargebackReverted: { status: 'SUCCESS', state: 28, stateDescription: 'Chargeback Reverted' },
};

/** While a refund waits for the bank, the transaction shows as a refund initiated. */
export const REFUND_IN_FLIGHT: LedgerState = { status: 'SUCCESS', state: 22, stateDescription: 'Partial Refund Initiated' };

export function ledgerStateOf(t: Pick<Transaction, 'status' | 'refunds'>): LedgerState {
  return t.refunds.some((r) => r.status === 'PENDING') ? REFUND_IN_FLIGHT : LEDGER_STATES[t.status];
}

/** The transaction statuses a ledger `status` filter selects (ALL: every one). */
export function txnStatusesFor(filter: LedgerStatus | 'ALL'): TxnStatusName[] {
  return (Object.keys(LEDGER_STATES) as TxnStatusName[]).filter((s) => filter === 'ALL' || LEDGER_STATES[s].status === filter);
}
