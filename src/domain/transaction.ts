import type { PaymentInstrument } from './instrument';
import type { Paise } from './money';
import { PaymentResponse } from './response-codes';
import type { TxnStatusName } from './txn-status';

export type RefundStatus = 'SUCCESS' | 'PENDING' | 'FAILED';

export interface RefundEntry {
  merchantRefId: string;
  amountPaise: Paise;
  rrn: string | null;
  status: RefundStatus;
  createdAt: Date;
  /** Zaakpay's updateDesired: "14" full, "22" partial (absent on entries written before refunds existed). */
  updateDesired?: '14' | '22';
  updateReason?: string;
  completedAt?: Date | null;
  /** An auto-refund of a delayed success: its completion is reported to the non-real-time webhook. */
  auto?: boolean;
  /** The settlement that deducted this refund (claimed once, by conditional update). */
  settlementId?: string;
}

/** A chargeback the bank raised on a successful transaction, and its revert. */
export interface Chargeback {
  amountPaise: Paise;
  raisedAt: Date;
  revertedAt: Date | null;
  /** The settlement that deducted the chargeback (claimed once, by conditional update). */
  settlementId?: string;
  /** The settlement that added back its revert. */
  reversalSettlementId?: string;
}

/** An order split among merchants (the split payment API): each share settles to its merchant. */
export interface TransactionSplit {
  masterMerchantIdentifier: string;
  shares: { merchantIdentifier: string; amountPaise: Paise }[];
  at: Date;
}

/**
 * A chargeback raised or reverted, as recorded for the merchant's non-real-time webhook (one kind
 * of RecordedUpdate in webhook-update.ts). It lives here because a transaction holds the one whose
 * delivery is not yet started (chargebackNotice).
 */
export interface ChargebackChange {
  kind: 'chargeback';
  orderId: string;
  action: 'raise' | 'revert';
  /** The transaction's amount, and the chargeback's. */
  amountPaise: number;
  chargebackAmountPaise: number;
  txnStatus: TxnStatusName;
  /** ISO instant of the change. */
  at: string;
  /** The transaction's version after the change: names this change among raises and reverts. */
  version: number;
}

/**
 * One order of one merchant: the queryable projection the status, ledger and bulk APIs read.
 * Written only by the repository's idempotent calls; `version` grows with every change.
 */
export interface Transaction {
  txnId: string;
  merchantIdentifier: string;
  orderId: string;
  amountPaise: Paise;
  productDescription: string;
  /** The four further product descriptions, as received (bulk API, webhooks); absent when not sent. */
  product1Description?: string;
  product2Description?: string;
  product3Description?: string;
  product4Description?: string;
  buyerName: string | null;
  buyerEmail: string | null;
  ipAddress: string | null;
  instrument: PaymentInstrument;
  status: TxnStatusName;
  responseCode: string;
  responseDescription: string;
  bankRefNum: string | null;
  authCode: string | null;
  /** Failure decided by the service because the bank never answered (reconciliation may revise it). */
  markedFailedByService: boolean;
  /** A success that came from bank reconciliation, not the real-time flow (ledger includeDelayedSuccessTxn). */
  delayedSuccess?: boolean;
  /**
   * Set with a reconciliation's change, in the same write, and cleared once its follow-ups (the
   * auto-refund, the non-real-time webhook) are started: a retried batch finds it and starts them.
   */
  lateFollowUpsPending?: boolean;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  successAt: Date | null;
  refunds: RefundEntry[];
  /** Sum of the refunds not FAILED: what may still be refunded is amountPaise minus this. */
  refundReservedPaise?: Paise;
  chargeback?: Chargeback;
  /**
   * The last chargeback change, written in the same write as the change and cleared once its
   * webhook delivery is started: a crash between the two leaves it here for the sweep (or the next
   * chargeback call on the order) to start, so the merchant is always told.
   */
  chargebackNotice?: ChargebackChange;
  /** When the sweep last started this order's chargebackNotice delivery (it rotates like refunds). */
  chargebackNoticeSweptAt?: Date;
  /** Dynamic QR orders: the response `data` of the first request, as sent, repeated byte for byte. */
  qrData?: string;
  /** When the pending sweep last ensured this Pending order's workflow. */
  sweptAt?: Date;
  /** When the sweep last ensured the workflows of this order's PENDING refunds. */
  refundsSweptAt?: Date;
  /** Orders that wait for their payer: when the wait ends (a payment link's linkExpireBy). */
  payerDeadline?: Date;
  /** Mandate debits: when the debit is scheduled to run (the notify's executionDate). */
  executeAt?: Date;
  /** Orders made by a payment link or hosted checkout (their instrument becomes the payer's when paid). */
  channel?: 'link' | 'checkout';
  /** Set once, before the sale is settled, by the split payment API. */
  split?: TransactionSplit;
  /** The settlement that claimed the sale (claimed once, by conditional update). */
  saleSettlementId?: string;
  /**
   * When the order's latest settleable adjustment happened (a refund settled SUCCESS, a chargeback
   * raised or reverted), written in the same write as the adjustment: the settlement engine finds
   * the adjustments it claims by this field (index merchant_adjusted), never by walking every order.
   */
  adjustedAt?: Date;
  /**
   * How many outcomes the order has had (1 for its first Success or Failure, 2 after a delayed
   * success), counted in the write that records each: a real-time webhook built from outcome n is
   * superseded, never sent, once the order has a later one (webhook-supersession.ts). Absent: none yet.
   */
  outcomeSeq?: number;
  /**
   * The version of the order's latest chargeback change (ChargebackChange.version), written with it:
   * a chargeback call of an earlier change is superseded, never sent, once a later one is recorded.
   */
  chargebackVersion?: number;
  version: number;
}

/** What a payment's final outcome changes on its transaction. */
export interface PaymentOutcome {
  status: 'Success' | 'Failure';
  responseCode: string;
  responseDescription: string;
  bankRefNum: string | null;
  authCode: string | null;
  markedFailedByService: boolean;
  delayedSuccess?: boolean;
  lateFollowUpsPending?: boolean;
  /** A QR order learns its payer's instrument when it is paid. */
  instrument?: PaymentInstrument;
}

/** The further product descriptions a payment may carry besides productDescription. */
export const EXTRA_PRODUCT_DESCRIPTIONS = [
  'product1Description',
  'product2Description',
  'product3Description',
  'product4Description',
] as const;
type ExtraProductDescriptions = Partial<Record<(typeof EXTRA_PRODUCT_DESCRIPTIONS)[number], string>>;

/** Only the extra product descriptions that were sent (absent ones are not stored as null). */
export function extraProductDescriptions(from: ExtraProductDescriptions): ExtraProductDescriptions {
  return Object.fromEntries(EXTRA_PRODUCT_DESCRIPTIONS.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));
}

/**
 * A Failure no bank's final answer decided, which a later bank approval (a callback, a reconciliation
 * line) turns into a delayed success (design.md, Transactions and states): the service marked it (silent bank, expired QR
 * or link, a refused request), or the payer cancelled a hosted checkout (102) whose UPI intent or QR
 * the page had already handed out, so the payer may still have paid in their UPI app.
 */
export function mayBecomeDelayedSuccess(t: Pick<Transaction, 'status' | 'markedFailedByService' | 'responseCode'>): boolean {
  return t.status === 'Failure' && (t.markedFailedByService || t.responseCode === PaymentResponse.cancelledByPayer.code);
}

/** What starts a payment: the order fields of the transaction it stores. */
export type PaymentRequest = Pick<
  Transaction,
  | 'merchantIdentifier'
  | 'orderId'
  | 'amountPaise'
  | 'productDescription'
  | 'product1Description'
  | 'product2Description'
  | 'product3Description'
  | 'product4Description'
  | 'buyerName'
  | 'buyerEmail'
  | 'ipAddress'
  | 'instrument'
>;
