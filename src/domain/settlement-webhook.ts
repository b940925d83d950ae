import { formatIstDateTime } from './ist-time';
import type { Settlement } from './settlement';
import { rupeesText } from './money';

/**
 * The `settlement.processed` webhook, sent to merchants who opt in when a settlement is paid. It
 * travels the payment webhooks' machinery: its JSON is the `txnData` text, checksummed and signed
 * the same way, in the merchant's body format.
 */
export const SETTLEMENT_PROCESSED = 'settlement.processed';

/**
 * The delivery id: named by the settlement (`settlement-processed:<merchant>:<yyyy-MM-dd>`), so a
 * retried or repeated settlement workflow finds the delivery it made and never makes a second one.
 */
export const settlementProcessedDeliveryId = (s: { merchantIdentifier: string; settlementDate: string }) =>
  `settlement-processed:${s.merchantIdentifier}:${s.settlementDate}`;

/** `yyyy-MM-dd` as `dd-MM-yyyy`: the `utr_date` getSettlementReport takes to list this settlement's lines. */
export const utrDateText = (settlementDate: string) => settlementDate.split('-').reverse().join('-');

export interface SettlementProcessedEvent {
  event: typeof SETTLEMENT_PROCESSED;
  settlementId: string;
  merchantIdentifier: string;
  /** `dd-MM-yyyy`, IST: the date of the UTR, as getSettlementReport's `utr_date`. */
  settlementDate: string;
  utr: string;
  /** When the bank paid, IST `yyyy-MM-dd HH:mm:ss` (the report's `txn_date` format). */
  paidAt: string;
  transactionCount: string;
  /** Rupees with two decimals, as text, as getSettlementReport carries money. */
  grossAmount: string;
  refundAmount: string;
  chargebackAmount: string;
  feeAmount: string;
  taxAmount: string;
  /** What earlier settlements carried into this one (a negative net, or a refused payout). */
  carriedInAmount: string;
  /** What the bank paid into the merchant's account. */
  netAmount: string;
}

/** A settlement's figures as merchants read them (the webhook's event and the settlements list), every field text. */
export function settlementFigures(s: Settlement) {
  return {
    settlementDate: utrDateText(s.settlementDate),
    utr: s.utr ?? '',
    paidAt: s.paidAt ? formatIstDateTime(s.paidAt) : '',
    transactionCount: String(s.lineCount),
    grossAmount: rupeesText(s.grossPaise),
    refundAmount: rupeesText(s.refundsPaise),
    chargebackAmount: rupeesText(s.chargebacksPaise),
    feeAmount: rupeesText(s.feePaise),
    taxAmount: rupeesText(s.taxPaise),
    carriedInAmount: rupeesText(s.carriedInPaise),
    netAmount: rupeesText(s.netPaise),
  };
}

/** The event of a paid settlement, every field text. */
export function settlementProcessedEvent(s: Settlement): SettlementProcessedEvent {
  return { event: SETTLEMENT_PROCESSED, settlementId: s._id, merchantIdentifier: s.merchantIdentifier, ...settlementFigures(s) };
}
