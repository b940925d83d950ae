import { decideChargeback, type ChargebackAction, type ChargebackDecision } from '../domain/chargeback';
import type { Paise } from '../domain/money';
import type { Transaction } from '../domain/transaction';
import type { OrderRef, TransactionRepository } from '../store/transaction-repository';

export type ChargebackResult =
  | { kind: 'applied'; transaction: Transaction }
  | { kind: 'unknownOrder' }
  | { kind: 'refused'; refusal: Extract<ChargebackDecision, { ok: false }>['refusal'] };

/** Raises or reverts a chargeback: a compare-and-set on the order's version, so it applies once or not at all. */
export async function applyChargeback(
  deps: { transactions: TransactionRepository; now: () => Date },
  order: OrderRef,
  action: ChargebackAction,
  amountPaise: Paise,
): Promise<ChargebackResult> {
  for (;;) {
    const t = await deps.transactions.findByOrder(order);
    if (!t) return { kind: 'unknownOrder' };
    const now = deps.now();
    const decision = decideChargeback(t, action, amountPaise, now);
    if (!decision.ok) return { kind: 'refused', refusal: decision.refusal };
    const updated = await deps.transactions.updateIfUnchanged(order, t.version, {
      set: { status: decision.status, chargeback: decision.chargeback, updatedAt: now },
    });
    if (updated) return { kind: 'applied', transaction: updated };
  }
}
