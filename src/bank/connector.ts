import type { CardSeenByBank } from './card-at-bank';
import type { PaymentInstrument } from '../domain/instrument';
import type { Paise } from '../domain/money';
import type { PaymentResponseKey } from '../domain/response-codes';

export interface BankPaymentRequest {
  txnId: string;
  merchantIdentifier: string;
  /** The order (absent in activities scheduled before it was sent): the bank echoes it in its callback. */
  orderId?: string;
  amountPaise: Paise;
  instrument: PaymentInstrument;
  /**
   * The payer is at a browser on a page of ours (a payment link page): a bank that redirects the
   * payer (card, net banking) sends the browser back to the gateway afterwards.
   */
  payerAtBrowser?: boolean;
}

/** Where the payer's browser must go to authenticate with the bank (card, net banking over http). */
export interface BankRedirect {
  url: string;
  method: 'GET' | 'POST';
  fields: Record<string, string>;
}

/** The bank's verdict on one payment. */
export interface BankAnswer {
  approved: boolean;
  response: PaymentResponseKey;
  bankRefNum: string | null;
  authCode: string | null;
  /** The answer came after the fact, from a reconciliation file: a success is a delayed success. */
  delayed?: boolean;
  /** The masked card the payer typed on the bank's page (a card payment redirected to the bank). */
  card?: CardSeenByBank;
}

/**
 * A bank answers at once, or accepts the request and answers later (a callback or a reconciliation
 * line, through bankAnswerUpdate);
 * `redirect` when the payer must first go to the bank's page.
 */
export type BankReply = { kind: 'answered'; answer: BankAnswer } | { kind: 'awaiting'; redirect?: BankRedirect };

/** The mandate a request is about, as the bank knows it (absent only in activities scheduled before it was sent). */
export interface MandateRef {
  merchantIdentifier?: string;
  mandateOrderId?: string;
}

/**
 * What the gateway needs from an acquiring bank or UPI switch. Requests must be idempotent per
 * txnId: an activity retry sends the same request again.
 */
export interface BankConnector {
  requestPayment(request: BankPaymentRequest): Promise<BankReply>;
  /**
   * The status inquiry of a payment the bank has not answered: its final answer if it has one now,
   * else null (still pending, or unknown to the bank).
   */
  inquirePayment(request: { txnId: string }): Promise<BankAnswer | null>;
  /** Refunds part or all of a settled payment. Idempotent per refundId. */
  requestRefund(request: BankRefundRequest): Promise<BankRefundAnswer>;
  /** Asks the payer (through their UPI app) to approve a mandate; resolves with the payer's choice. */
  requestMandateApproval(request: { txnId: string; payerVpa: string } & MandateRef): Promise<{ approved: boolean }>;
  /** Sends the payer the pre-debit notification of a mandate debit; the payer's bank may refuse it. */
  notifyMandateDebit(
    request: {
      txnId: string;
      payerVpa: string;
      amountPaise: Paise;
      executeAt: Date;
    } & MandateRef,
  ): Promise<{ accepted: boolean }>;
}

/**
 * The acquirer's payouts: settlements paid to merchants' bank accounts, and its daily settlement
 * file. Apart from BankConnector so the payment-side fakes of workflow tests need not implement it;
 * both connectors (sandbox, http) implement the two.
 */
export interface BankPayouts {
  /** Pays a merchant's settlement. Idempotent per payoutId (the settlement id): a repeat answers the first payout. */
  requestPayout(request: BankPayoutRequest): Promise<BankPayoutAnswer>;
  /** The payout's answer now, or null when the bank does not know it. */
  inquirePayout(request: { payoutId: string }): Promise<BankPayoutAnswer | null>;
  /** The bank's list of the payouts it made on an IST date (`yyyy-MM-dd`). */
  settlementFile(date: string): Promise<BankPayoutLine[]>;
}

export interface BankPayoutRequest {
  payoutId: string;
  merchantIdentifier: string;
  amountPaise: Paise;
  ifsc: string;
  accountNumber: string;
}

export interface BankPayoutAnswer {
  status: 'PAID' | 'REFUSED' | 'PENDING';
  utr: string | null;
  responseCode: string;
  responseDescription: string;
}

export interface BankPayoutLine {
  payoutId: string;
  merchantIdentifier: string;
  amountPaise: Paise;
  utr: string;
}

export interface BankRefundRequest {
  refundId: string;
  txnId: string;
  bankRefNum: string | null;
  amountPaise: Paise;
  reason: string;
}

export type BankRefundAnswer = { approved: true; rrn: string } | { approved: false };

/**
 * Non-retryable failure types of a bank call (ApplicationFailure types): asking again cannot help.
 * Transient faults (network, timeout, 5xx, 408, 429) are plain errors that Temporal retries.
 */
export const BankFailure = {
  /** The bank refused the request itself (a 4xx other than 404, 408 and 429; the status is the failure's first detail). */
  REQUEST_REFUSED: 'BankRequestRefused',
  /** The bank answered about another id or amount: never recorded as this request's answer. */
  ANSWER_MISMATCH: 'BankAnswerMismatch',
} as const;
