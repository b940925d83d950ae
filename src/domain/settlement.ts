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

/** A difference between the bank's settlement file and the gateway's settlements, recorded once. */
export interface SettlementDifference {
  /** `<date>:<payoutId>:<kind>`: the same difference found again is not recorded twice. */
  _id: string;
  date: string;
  payoutId: string;
  merchantIdentifier: string | null;
  /** paid_at_bank_not_recorded: the bank paid a payout the gateway still waits to hear about (payout_requested). */
  kind: 'missing_at_bank' | 'unknown_to_gateway' | 'amount_differs' | 'utr_differs' | 'paid_at_bank_not_recorded';
  gateway: { amountPaise: number; utr: string | null; state: string } | null;
  bank: { amountPaise: number; utr: string } | null;
  foundAt: Date;
  /**
   * When a later look found the difference settled (it is kept, no longer listed by needs
   * attention), and why: `recorded_paid` (the gateway recorded the payout paid with the bank's
   * amount and UTR) or `recorded_paid_differently` (another amount or UTR: recorded as that difference).
   */
  resolvedAt?: Date;
  resolution?: 'recorded_paid' | 'recorded_paid_differently';
}

/** A merchant whose settlement the daily run could not start after its retries (`_id` merchant:date). */
export interface SettlementStartFailure {
  _id: string;
  merchantIdentifier: string;
  settlementDate: string;
  reason: string;
  failedAt: Date;
}

/** The outcome of the daily check of one bank settlement file (`_id` the payout date). */
export interface SettlementFileCheck {
  _id: string;
  state: 'checked' | 'failed';
  payouts?: number;
  differences?: number;
  /** Why it failed: `file_missing` (the bank has no file of the date) or `file_unreadable` (older checks: the message). */
  reason?: string;
  /** What the last attempt met. */
  detail?: string;
  at: Date;
}

/** What an operator's run of a settlement date did: started it, or found it running or completed. */
export type SettlementRunOutcome = 'started' | 'already_running' | 'already_completed';

/** An operator's run of a merchant's settlement date, with the settlement's state (null: none stored yet). */
export interface SettlementRun {
  settlementId: string;
  settlementDate: string;
  outcome: SettlementRunOutcome;
  state: string | null;
}
