import type { SettlementLine } from '../../../src/domain/settlement';
import type { FeePlan, FeeRate } from '../../../src/domain/settlement-fees';
import type { Transaction } from '../../../src/domain/transaction';

/**
 * The fees as the merchant's contract states them, computed here again rather than by the
 * engine's code: a percentage of the amount rounded half-up to the paisa plus the fixed fee, GST
 * of 18 % on it rounded half-up; refunds return (when the plan says so) the share of the fee and
 * tax of what was refunded in all, so refunds of the whole amount return the whole fee.
 */
const halfUp = (n: number, num: number, den: number) => Math.floor((2 * n * num + den) / (2 * den));

function rateOf(plan: FeePlan, t: Transaction): FeeRate {
  const i = t.instrument;
  if (i.kind === 'CARD') {
    const kind = i.cardType === 'CREDIT' ? 'credit' : 'debit';
    return plan.networks?.[i.brand]?.[kind] ?? plan.card[kind];
  }
  if (i.kind === 'NETBANKING') return plan.netbanking;
  return plan.upi;
}

export function expectedSaleFee(plan: FeePlan, t: Transaction): { fee: number; tax: number } {
  const r = rateOf(plan, t);
  const fee = halfUp(t.amountPaise, r.percentBps, 10_000) + r.fixedPaise;
  return { fee, tax: halfUp(fee, 18, 100) };
}

/** What a split gives merchant `m` of the order (all of it to the merchant of an order not split). */
export function shareOf(t: Transaction, m: string): number {
  if (!t.split) return t.merchantIdentifier === m ? t.amountPaise : 0;
  return t.split.shares.filter((s) => s.merchantIdentifier === m).reduce((n, s) => n + s.amountPaise, 0);
}

/**
 * (6) Every fee to the paisa: each SALE line on the master carries the fee and tax of the order's
 * amount under the merchant's plan (a share line of another merchant none); the REFUND lines of an
 * order whose refunds are all claimed return, in all, the share of the fee and tax refunded;
 * chargebacks and reverts carry none. Each line's settlement amount is its amount less (or, for a
 * refund, plus) what it carries.
 */
export function feesExact(plan: FeePlan, stored: Map<string, Transaction>, lines: SettlementLine[]): string[] {
  const problems: string[] = [];
  const byTxn = new Map<string, SettlementLine[]>();
  for (const l of lines) byTxn.set(l.txnId, [...(byTxn.get(l.txnId) ?? []), l]);
  for (const [txnId, ls] of byTxn) {
    const t = stored.get(txnId);
    if (!t) continue;
    const master = t.split?.masterMerchantIdentifier ?? t.merchantIdentifier;
    const sale = expectedSaleFee(plan, t);
    for (const l of ls) {
      const expected =
        l.action === 'SALE' && l.merchantIdentifier === master ? sale : l.action === 'REFUND' ? undefined : { fee: 0, tax: 0 };
      if (expected && (l.feePaise !== expected.fee || l.taxPaise !== expected.tax))
        problems.push(
          `(6) ${l._id} (order ${t.orderId}, ${t.amountPaise} paise) carries fee ${l.feePaise} + tax ${l.taxPaise}; the plan says ${expected.fee} + ${expected.tax}`,
        );
      const sign = l.action === 'SALE' || l.action === 'CHARGEBACK_REVERSAL' ? 1 : -1;
      if (l.settlementAmountPaise !== sign * l.amountPaise - l.feePaise - l.taxPaise)
        problems.push(`(6) ${l._id}: settles ${l.settlementAmountPaise} for ${l.amountPaise} less ${l.feePaise} + ${l.taxPaise}`);
    }
    const refunds = t.refunds.filter((r) => r.status === 'SUCCESS');
    const refundLines = ls.filter((l) => l.action === 'REFUND');
    if (refunds.length === 0 || refundLines.length !== refunds.length) continue;
    const refunded = refunds.reduce((n, r) => n + r.amountPaise, 0);
    const back = plan.refundReturnsFee
      ? { fee: halfUp(sale.fee, refunded, t.amountPaise), tax: halfUp(sale.tax, refunded, t.amountPaise) }
      : { fee: 0, tax: 0 };
    const fee = -refundLines.reduce((n, l) => n + l.feePaise, 0);
    const tax = -refundLines.reduce((n, l) => n + l.taxPaise, 0);
    if (fee !== back.fee || tax !== back.tax)
      problems.push(
        `(6) the refunds of order ${t.orderId} (${refunded} of ${t.amountPaise} paise) return fee ${fee} + tax ${tax}; the plan says ${back.fee} + ${back.tax}`,
      );
  }
  return problems;
}
