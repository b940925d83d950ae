import type { Paise } from './money';

/**
 * Settlements (design.md, Settlements and split payments): one settlement per merchant and
 * settlement date (the date of the bank's UTR, IST), its `_id` the workflow id
 * `settlement:<merchantIdentifier>:<yyyy-MM-dd>`.
 */
export type SettlementState = 'open' | 'payout_requested' | 'paid' | 'carried_forward' | 'payout_refused' | 'held';

/** States after which a settlement changes no more: its net is paid, or carried into the next one. */
export const FINAL_SETTLEMENT_STATES: readonly SettlementState[] = ['paid', 'carried_forward', 'payout_refused'];

export interface Settlement {
  _id: string;
  merchantIdentifier: string;
  /** `yyyy-MM-dd`, IST: the UTR date. */
  settlementDate: string;
  state: SettlementState;
  lineCount: number;
  /** Sum of the SALE lines' amounts. */
  grossPaise: Paise;
  refundsPaise: Paise;
  /** Chargebacks minus their reversals. */
  chargebacksPaise: Paise;
  feePaise: Paise;
  taxPaise: Paise;
  /** The negative net (or refused payout) of earlier settlements brought into this one. */
  carriedInPaise: Paise;
  /** What is paid: the sum of the lines' settlementAmountPaise plus carriedInPaise. */
  netPaise: Paise;
  /** What this settlement passes to the next one (a negative net, or a refused payout); 0 when paid. */
  carriedOutPaise: Paise;
  utr?: string;
  payoutId?: string;
  accountLast4?: string;
  ifsc?: string;
  /** The account the payout was first requested to (number sealed): every later request sends it. */
  payoutAccount?: { ifsc: string; accountNumberSealed: string; accountLast4: string };
  /** When the payout was marked requested (a hold placed before the bank was asked still stops it). */
  payoutRequestedAt?: Date;
  /** When the bank was first asked: from then on the payout is the bank's, and it is awaited. */
  awaitingBankSince?: Date;
  createdAt: Date;
  paidAt?: Date;
  failureReason?: string;
  /** The settlement whose carriedOutPaise this one took in (so a carry is taken once). */
  carriedFromId?: string;
  /** Why a `held` settlement waits when it is not the operator's hold: its account was changed recently. */
  heldReason?: 'account_cooling';
  /** With `heldReason: account_cooling`: when the account's cooling ends and the payout goes on. */
  coolingUntil?: Date;
}

export type SettlementAction = 'SALE' | 'REFUND' | 'CHARGEBACK' | 'CHARGEBACK_REVERSAL';

export interface SettlementLine {
  /** `<ACTION>:<eventId>:<recipientMerchantIdentifier>`: a line exists at most once. */
  _id: string;
  settlementId: string;
  /** The recipient: the master or a sub-merchant of a split. */
  merchantIdentifier: string;
  txnId: string;
  orderId: string;
  action: SettlementAction;
  /** The capture time of the transaction. */
  txnDate: Date;
  /** Always positive; the sign is in settlementAmountPaise. */
  amountPaise: Paise;
  feePaise: Paise;
  taxPaise: Paise;
  settlementAmountPaise: Paise;
  settlementDate: string;
  rrn?: string;
  arn?: string;
}

/** The workflow id, and the settlement's `_id` and payout id (so a retried payout is the same one). */
export const settlementId = (merchantIdentifier: string, settlementDate: string) =>
  `settlement:${merchantIdentifier}:${settlementDate}`;

/**
 * A refund's event id in its line id: refunds are embedded in their transaction and named by the
 * merchant's refund id, unique within the order.
 */
export const refundEventId = (txnId: string, merchantRefId: string) => `${txnId}/${merchantRefId}`;

/** A transaction holds at most one chargeback: its id is the transaction's. */
export const chargebackEventId = (txnId: string) => txnId;

export const settlementLineId = (action: SettlementAction, eventId: string, recipient: string) =>
  `${action}:${eventId}:${recipient}`;

/** The sums of a settlement's lines. */
export interface SettlementTotals {
  lineCount: number;
  grossPaise: Paise;
  refundsPaise: Paise;
  chargebacksPaise: Paise;
  feePaise: Paise;
  taxPaise: Paise;
  /** Sum of the lines' settlementAmountPaise (signed). */
  linesNetPaise: Paise;
}

export const EMPTY_TOTALS: SettlementTotals = {
  lineCount: 0,
  grossPaise: 0,
  refundsPaise: 0,
  chargebacksPaise: 0,
  feePaise: 0,
  taxPaise: 0,
  linesNetPaise: 0,
};

/** Adds lines to running totals (the activity sums a page at a time). */
export function addLines(
  totals: SettlementTotals,
  lines: Iterable<Pick<SettlementLine, 'action' | 'amountPaise' | 'feePaise' | 'taxPaise' | 'settlementAmountPaise'>>,
): SettlementTotals {
  const t = { ...totals };
  for (const l of lines) {
    t.lineCount++;
    if (l.action === 'SALE') t.grossPaise += l.amountPaise;
    else if (l.action === 'REFUND') t.refundsPaise += l.amountPaise;
    else if (l.action === 'CHARGEBACK') t.chargebacksPaise += l.amountPaise;
    else t.chargebacksPaise -= l.amountPaise;
    t.feePaise += l.feePaise;
    t.taxPaise += l.taxPaise;
    t.linesNetPaise += l.settlementAmountPaise;
  }
  return t;
}

/** What a settlement decides from its totals and what it carries in. */
export type SettlementOutcome = { pay: true; netPaise: Paise } | { pay: false; netPaise: Paise; carriedOutPaise: Paise };

/**
 * A positive net is paid; zero or negative pays nothing and is carried into the next settlement
 * (design.md, Settlements and split payments).
 */
export function settlementOutcome(linesNetPaise: Paise, carriedInPaise: Paise): SettlementOutcome {
  const netPaise = linesNetPaise + carriedInPaise;
  return netPaise > 0 ? { pay: true, netPaise } : { pay: false, netPaise, carriedOutPaise: netPaise };
}
