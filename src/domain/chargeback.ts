import type { Paise } from './money';
import type { Chargeback, Transaction } from './transaction';
import type { TxnStatusName } from './txn-status';

export type ChargebackAction = 'raise' | 'revert';

export type ChargebackDecision =
  | { ok: true; status: TxnStatusName; chargeback: Chargeback }
  | { ok: false; refusal: 'notAllowed' | 'amountExceeds' | 'amountDiffers' };

/**
 * The chargeback transitions (design.md, Transactions and states): a Success charged back in full becomes Chargeback
 * (6), in part Partial Chargeback (8); a revert of the same amount makes them Chargeback Reverted
 * (5) and Partial Chargeback Reverted (7). Nothing else.
 */
export function decideChargeback(t: Transaction, action: ChargebackAction, amountPaise: Paise, at: Date): ChargebackDecision {
  if (action === 'raise') {
    if (t.status !== 'Success') return { ok: false, refusal: 'notAllowed' };
    if (amountPaise > t.amountPaise) return { ok: false, refusal: 'amountExceeds' };
    return {
      ok: true,
      status: amountPaise === t.amountPaise ? 'Chargeback' : 'PartialChargeback',
      chargeback: { amountPaise, raisedAt: at, revertedAt: null },
    };
  }
  if ((t.status !== 'Chargeback' && t.status !== 'PartialChargeback') || !t.chargeback)
    return { ok: false, refusal: 'notAllowed' };
  if (amountPaise !== t.chargeback.amountPaise) return { ok: false, refusal: 'amountDiffers' };
  return {
    ok: true,
    status: t.status === 'Chargeback' ? 'ChargebackReverted' : 'PartialChargebackReverted',
    chargeback: { ...t.chargeback, revertedAt: at },
  };
}

/** A chargeback asked for: applied (the order as written), the order unknown, or refused. */
export type ChargebackResult =
  | { kind: 'applied'; transaction: Transaction }
  | { kind: 'unknownOrder' }
  | { kind: 'refused'; refusal: Extract<ChargebackDecision, { ok: false }>['refusal'] };
