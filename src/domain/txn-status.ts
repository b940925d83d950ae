/** The contract's `txnStatus` codes (status API) and the transitions design.md allows (Transactions and states). */
export const TxnStatus = {
  Success: 0,
  Failure: 1,
  Pending: 2,
  Refund: 3,
  PartialRefund: 4,
  ChargebackReverted: 5,
  Chargeback: 6,
  PartialChargebackReverted: 7,
  PartialChargeback: 8,
} as const;

export type TxnStatusName = keyof typeof TxnStatus;

const ALLOWED: Record<TxnStatusName, readonly TxnStatusName[]> = {
  Pending: ['Success', 'Failure'],
  // Failure -> Success only through bank reconciliation (a "delayed success").
  Failure: ['Success'],
  Success: ['PartialRefund', 'Refund', 'PartialChargeback', 'Chargeback'],
  PartialRefund: ['PartialRefund', 'Refund'],
  Refund: [],
  PartialChargeback: ['PartialChargebackReverted'],
  Chargeback: ['ChargebackReverted'],
  PartialChargebackReverted: [],
  ChargebackReverted: [],
};

export function canTransition(from: TxnStatusName, to: TxnStatusName): boolean {
  return ALLOWED[from].includes(to);
}

/** States from which `from` may have been reached: used to guard projection updates. */
export function statesThatMayBecome(to: TxnStatusName): TxnStatusName[] {
  return (Object.keys(ALLOWED) as TxnStatusName[]).filter((from) => ALLOWED[from].includes(to));
}
