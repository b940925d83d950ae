import type { Paise } from './money';
import { chargebackEventId, refundEventId, settlementLineId, type SettlementLine } from './settlement';
import { refundedBeforePaise, refundReturnedFee, saleFee, type FeePlan } from './settlement-fees';
import type { Transaction } from './transaction';

type LineTxn = Pick<
  Transaction,
  'txnId' | 'merchantIdentifier' | 'orderId' | 'amountPaise' | 'instrument' | 'successAt' | 'bankRefNum' | 'split' | 'refunds'
>;

interface LineContext {
  settlementId: string;
  settlementDate: string;
}

const base = (t: LineTxn, c: LineContext) => ({
  settlementId: c.settlementId,
  txnId: t.txnId,
  orderId: t.orderId,
  txnDate: t.successAt ?? new Date(0),
  settlementDate: c.settlementDate,
});

/**
 * The SALE lines of a paid order: one for the merchant, or one per share of a split. The fee and
 * its tax are computed on the whole amount and carried by the merchant's (the master's) line.
 */
export function saleLines(t: LineTxn, plan: FeePlan, c: LineContext): SettlementLine[] {
  const { feePaise, taxPaise } = saleFee(plan, t.instrument, t.amountPaise);
  const master = t.split?.masterMerchantIdentifier ?? t.merchantIdentifier;
  const shares = t.split?.shares ?? [{ merchantIdentifier: master, amountPaise: t.amountPaise }];
  // The master always carries the fee, even when the split gives it no share of its own.
  const withMaster = shares.some((s) => s.merchantIdentifier === master)
    ? shares
    : [{ merchantIdentifier: master, amountPaise: 0 }, ...shares];
  return withMaster.map((s) => {
    const onMaster = s.merchantIdentifier === master;
    const fee = onMaster ? feePaise : 0;
    const tax = onMaster ? taxPaise : 0;
    return {
      _id: settlementLineId('SALE', t.txnId, s.merchantIdentifier),
      ...base(t, c),
      merchantIdentifier: s.merchantIdentifier,
      action: 'SALE' as const,
      amountPaise: s.amountPaise,
      feePaise: fee,
      taxPaise: tax,
      settlementAmountPaise: s.amountPaise - fee - tax,
      ...(t.bankRefNum ? { rrn: t.bankRefNum } : {}),
    };
  });
}

/**
 * The REFUND line of the refund at `index` in the order's refunds, on the master: minus its amount,
 * plus the fee and tax it returns when the plan says so (then its feePaise and taxPaise are negative).
 * `sale` is the fee the sale was charged (its SALE line on the master).
 */
export function refundLine(
  t: LineTxn,
  index: number,
  plan: Pick<FeePlan, 'refundReturnsFee'>,
  sale: { feePaise: Paise; taxPaise: Paise },
  c: LineContext,
): SettlementLine {
  const r = t.refunds[index];
  const refundedBefore = refundedBeforePaise(t.refunds, index);
  const returned = refundReturnedFee(plan, { amountPaise: t.amountPaise, ...sale }, refundedBefore, r.amountPaise);
  const master = t.split?.masterMerchantIdentifier ?? t.merchantIdentifier;
  return {
    _id: settlementLineId('REFUND', refundEventId(t.txnId, r.merchantRefId), master),
    ...base(t, c),
    merchantIdentifier: master,
    action: 'REFUND',
    amountPaise: r.amountPaise,
    feePaise: 0 - returned.feePaise, // never -0
    taxPaise: 0 - returned.taxPaise,
    settlementAmountPaise: -r.amountPaise + returned.feePaise + returned.taxPaise,
    ...(r.rrn ? { arn: r.rrn } : {}),
  };
}

/** A chargeback (minus its amount) or its revert (plus), on the master; no fee either way. */
export function chargebackLine(t: LineTxn, amountPaise: Paise, reversal: boolean, c: LineContext): SettlementLine {
  const action = reversal ? 'CHARGEBACK_REVERSAL' : 'CHARGEBACK';
  const master = t.split?.masterMerchantIdentifier ?? t.merchantIdentifier;
  return {
    _id: settlementLineId(action, chargebackEventId(t.txnId), master),
    ...base(t, c),
    merchantIdentifier: master,
    action,
    amountPaise,
    feePaise: 0,
    taxPaise: 0,
    settlementAmountPaise: reversal ? amountPaise : -amountPaise,
  };
}
