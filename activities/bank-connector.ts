import type { PaymentInstrument } from '../src/domain/instrument';
import type { Paise } from '../src/domain/money';
import type { PaymentResponseKey } from '../src/domain/response-codes';

export interface BankPaymentRequest {
  txnId: string;
  merchantIdentifier: string;
  amountPaise: Paise;
  instrument: PaymentInstrument;
}

/** The bank's verdict on one payment. */
export interface BankAnswer {
  approved: boolean;
  response: PaymentResponseKey;
  bankRefNum: string | null;
  authCode: string | null;
  /** The answer came after the fact, from a reconciliation file: a success is a delayed success. */
  delayed?: boolean;
}

/** A bank answers at once, or accepts the request and answers later (through bankAnswerSignal). */
export type BankReply = { kind: 'answered'; answer: BankAnswer } | { kind: 'awaiting' };

/**
 * What the gateway needs from an acquiring bank or UPI switch. Requests must be idempotent per
 * txnId: an activity retry sends the same request again.
 */
export interface BankConnector {
  requestPayment(request: BankPaymentRequest): Promise<BankReply>;
  /** Refunds part or all of a settled payment. Idempotent per refundId. */
  requestRefund(request: BankRefundRequest): Promise<BankRefundAnswer>;
  /** Asks the payer (through their UPI app) to approve a mandate; resolves with the payer's choice. */
  requestMandateApproval(request: { txnId: string; payerVpa: string }): Promise<{ approved: boolean }>;
  /** Sends the payer the pre-debit notification of a mandate debit; the payer's bank may refuse it. */
  notifyMandateDebit(request: {
    txnId: string;
    payerVpa: string;
    amountPaise: Paise;
    executeAt: Date;
  }): Promise<{ accepted: boolean }>;
}

export interface BankRefundRequest {
  refundId: string;
  txnId: string;
  bankRefNum: string | null;
  amountPaise: Paise;
  reason: string;
}

export type BankRefundAnswer = { approved: true; rrn: string } | { approved: false };
