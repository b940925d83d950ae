import { ApplicationFailure } from '@temporalio/common';
import type { z } from 'zod';
import {
  BankFailure,
  type BankAnswer,
  type BankConnector,
  type BankPaymentRequest,
  type BankPayoutAnswer,
  type BankPayoutLine,
  type BankPayoutRequest,
  type BankPayouts,
  type BankRefundAnswer,
  type BankRefundRequest,
  type BankReply,
  type MandateRef,
} from './connector';
import type { PaymentInstrument } from '../domain/instrument';
import type { CardSeenByBank } from './card-at-bank';
import type { Paise } from '../domain/money';
import type { PaymentResponseKey } from '../domain/response-codes';
import {
  BankPaths,
  bankMandateId,
  debitResponseSchema,
  GATEWAY_CALLBACK_PATH,
  gatewayReturnPath,
  mandateResponseSchema,
  notificationResponseSchema,
  paymentResponseSchema,
  payoutResponseSchema,
  refundResponseSchema,
  settlementFileSchema,
  type BankInstrument,
  type BankResponseCode,
} from './protocol';
import { BANK_SIGNATURE_HEADER, BANK_TIMESTAMP_HEADER, verifyBankAnswer } from './signing';
import { signedCall } from './signed-http';
import { SETTLEMENT_FILE_MISSING } from '../temporal/settlement-contract';
import { isSimulatorAnswer, SimulatorBankRefused } from './simulator-marker';

/**
 * BANK_CONNECTOR=http: the acquirer reached over the signed protocol v1 (protocol.ts). Each method
 * runs inside one activity attempt. A call is abandoned after `callTimeoutMs`; a network error, a
 * timeout, a 5xx, a 408 or a 429 throws a plain error, which Temporal retries; the ids the gateway
 * chooses (txnId, refundId, debitId) make the retried call return the bank's first answer, so a
 * payment, refund or debit the bank committed before its answer was lost is never made twice. Any
 * other 4xx is the gateway's own mistake and fails the activity for good (an operator looks).
 *
 * Refunds, mandates and debits the bank answers PENDING are read again (`GET`) within the attempt;
 * still pending, the attempt fails and Temporal asks again later. Payments answered PENDING or
 * REDIRECT end with a callback (POST /bank/v1/callbacks) or the status inquiry.
 */
export interface HttpBankConnectorOptions {
  baseUrl: string;
  secret: string;
  /** The gateway's address the bank calls back and sends payers back to (PUBLIC_BASE_URL). */
  gatewayBaseUrl: string;
  callTimeoutMs: number;
  /** How long one attempt keeps reading a PENDING refund, mandate or debit before it gives up for now. */
  pendingBudgetMs?: number;
  /** Production: an answer of the bank simulator (X-Bank-Simulator) decides nothing. */
  refuseSimulator?: boolean;
}

/** What the gateway reports for each bank response code (the gateway's codes: design.md, Environments and the bank protocol). */
const DECLINE_RESPONSE: Partial<Record<BankResponseCode, PaymentResponseKey>> = { '13': 'belowMinimum' };

export class BankCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BankCallError';
  }
}

export class HttpBankConnector implements BankConnector, BankPayouts {
  private readonly base: string;
  private readonly pendingBudgetMs: number;

  constructor(private readonly o: HttpBankConnectorOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.pendingBudgetMs = o.pendingBudgetMs ?? 10_000;
  }

  private get callbackUrl() {
    return `${this.o.gatewayBaseUrl}${GATEWAY_CALLBACK_PATH}`;
  }

  async requestPayment(request: BankPaymentRequest): Promise<BankReply> {
    const i = request.instrument;
    if (i.kind === 'UPI_MANDATE') return this.debit(request, i);
    const instrument = bankInstrument(i);
    // A QR or payment link nobody has paid yet: there is nothing to ask the bank.
    if (!instrument) return { kind: 'awaiting' };
    const answer = await this.call(paymentResponseSchema, 'POST', BankPaths.payments, {
      txnId: request.txnId,
      merchantIdentifier: request.merchantIdentifier,
      ...(request.orderId ? { orderId: request.orderId } : {}),
      amountPaise: request.amountPaise,
      instrument,
      callbackUrl: this.callbackUrl,
      ...(request.payerAtBrowser && request.orderId
        ? {
            returnUrl: `${this.o.gatewayBaseUrl}${gatewayReturnPath(request.merchantIdentifier, request.orderId, request.txnId)}`,
          }
        : {}),
    });
    this.requireEcho(answer.txnId, request.txnId, answer.amountPaise, request.amountPaise);
    if (answer.status === 'REDIRECT') {
      if (!answer.redirect) throw new BankCallError(`payment ${request.txnId}: REDIRECT without a redirect`);
      return { kind: 'awaiting', redirect: answer.redirect };
    }
    if (answer.status === 'PENDING') return { kind: 'awaiting' };
    return { kind: 'answered', answer: toAnswer(answer.status === 'APPROVED', answer) };
  }

  async inquirePayment(request: { txnId: string }): Promise<BankAnswer | null> {
    const answer = await this.call(paymentResponseSchema, 'GET', BankPaths.payment(request.txnId), undefined, { notFound: null });
    if (!answer) return null;
    this.requireEcho(answer.txnId, request.txnId);
    if (answer.status !== 'APPROVED' && answer.status !== 'DECLINED') return null;
    return toAnswer(answer.status === 'APPROVED', answer);
  }

  async requestRefund(request: BankRefundRequest): Promise<BankRefundAnswer> {
    let answer = await this.call(refundResponseSchema, 'POST', BankPaths.refunds, {
      refundId: request.refundId,
      txnId: request.txnId,
      amountPaise: request.amountPaise,
      reason: request.reason,
      callbackUrl: this.callbackUrl,
    });
    this.requireEcho(answer.refundId, request.refundId, answer.amountPaise, request.amountPaise);
    answer = await this.untilFinal(
      answer,
      () => this.call(refundResponseSchema, 'GET', BankPaths.refund(request.refundId)),
      `refund ${request.refundId}`,
    );
    return answer.status === 'APPROVED' ? { approved: true, rrn: answer.rrn ?? '' } : { approved: false };
  }

  async requestMandateApproval(request: { txnId: string; payerVpa: string } & MandateRef): Promise<{ approved: boolean }> {
    const mandateId = mandateIdOf(request);
    let answer = await this.call(mandateResponseSchema, 'POST', BankPaths.mandates, {
      mandateId,
      merchantIdentifier: request.merchantIdentifier ?? 'unknown',
      payerVpa: request.payerVpa,
      callbackUrl: this.callbackUrl,
    });
    this.requireEcho(answer.mandateId, mandateId);
    answer = await this.untilFinal(
      answer,
      () => this.call(mandateResponseSchema, 'GET', BankPaths.mandate(mandateId)),
      `mandate ${mandateId}`,
    );
    return { approved: answer.status === 'APPROVED' };
  }

  async notifyMandateDebit(
    request: { txnId: string; payerVpa: string; amountPaise: Paise; executeAt: Date } & MandateRef,
  ): Promise<{ accepted: boolean }> {
    const answer = await this.call(
      notificationResponseSchema,
      'POST',
      BankPaths.notifications(mandateIdOf(request)),
      { notificationId: request.txnId, amountPaise: request.amountPaise, executeAt: request.executeAt.toISOString() },
      { notFound: null },
    );
    // A mandate the bank does not hold cannot be debited: the payer's bank refuses the notice.
    if (!answer) return { accepted: false };
    this.requireEcho(answer.notificationId, request.txnId);
    return { accepted: answer.status === 'ACCEPTED' };
  }

  /** A PENDING payout is answered as is: the settlement workflow asks again (inquirePayout) later. */
  async requestPayout(request: BankPayoutRequest): Promise<BankPayoutAnswer> {
    const answer = await this.call(payoutResponseSchema, 'POST', BankPaths.payouts, { ...request });
    this.requireEcho(answer.payoutId, request.payoutId, answer.amountPaise, request.amountPaise);
    return {
      status: answer.status,
      utr: answer.utr,
      responseCode: answer.responseCode,
      responseDescription: answer.responseDescription,
    };
  }

  async inquirePayout(request: { payoutId: string }): Promise<BankPayoutAnswer | null> {
    const answer = await this.call(payoutResponseSchema, 'GET', BankPaths.payout(request.payoutId), undefined, {
      notFound: null,
    });
    if (!answer) return null;
    this.requireEcho(answer.payoutId, request.payoutId);
    return {
      status: answer.status,
      utr: answer.utr,
      responseCode: answer.responseCode,
      responseDescription: answer.responseDescription,
    };
  }

  /** A 404 is a file not available yet (retried, then recorded `file_missing`), never an empty file. */
  async settlementFile(date: string): Promise<BankPayoutLine[]> {
    const file = await this.call(settlementFileSchema, 'GET', BankPaths.settlementFile(date), undefined, { notFound: null });
    if (!file) throw ApplicationFailure.retryable(`the bank has no settlement file of ${date} yet`, SETTLEMENT_FILE_MISSING);
    return file.payouts;
  }

  private async debit(request: BankPaymentRequest, i: Extract<PaymentInstrument, { kind: 'UPI_MANDATE' }>): Promise<BankReply> {
    const mandateId = bankMandateId(request.merchantIdentifier, i.mandateOrderId);
    const first = await this.call(
      debitResponseSchema,
      'POST',
      BankPaths.debits(mandateId),
      {
        debitId: request.txnId,
        merchantIdentifier: request.merchantIdentifier,
        amountPaise: request.amountPaise,
        callbackUrl: this.callbackUrl,
      },
      { notFound: null },
    );
    // No such mandate at the bank: the debit is declined.
    if (!first)
      return { kind: 'answered', answer: { approved: false, response: 'declinedByBank', bankRefNum: null, authCode: null } };
    this.requireEcho(first.debitId, request.txnId, first.amountPaise, request.amountPaise);
    const answer = await this.untilFinal(
      first,
      () => this.call(debitResponseSchema, 'GET', BankPaths.debit(mandateId, request.txnId)),
      `debit ${request.txnId}`,
    );
    return { kind: 'answered', answer: toAnswer(answer.status === 'APPROVED', answer) };
  }

  /** Reads a PENDING answer again until it is final or this attempt's budget is spent (then Temporal retries). */
  private async untilFinal<T extends { status: string }>(first: T, read: () => Promise<T>, what: string): Promise<T> {
    let answer = first;
    const deadline = Date.now() + this.pendingBudgetMs;
    for (let wait = 100; answer.status === 'PENDING'; wait = Math.min(wait * 2, 1000)) {
      if (Date.now() + wait > deadline) throw new BankCallError(`${what} is still pending at the bank; asking again later`);
      await new Promise((r) => setTimeout(r, wait));
      answer = await read();
    }
    return answer;
  }

  /** An answer about another id or amount is not an answer to this request: never recorded. */
  private requireEcho(id: string, expectedId: string, amount?: number, expectedAmount?: number) {
    if (id !== expectedId || amount !== expectedAmount) {
      throw ApplicationFailure.nonRetryable(
        `the bank answered about ${id} (${amount ?? '-'} paise) to a request for ${expectedId} (${expectedAmount ?? '-'} paise)`,
        BankFailure.ANSWER_MISMATCH,
      );
    }
  }

  private async call<S extends z.ZodType, N = never>(
    schema: S,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    o: { notFound?: N } = {},
  ): Promise<z.infer<S> | N> {
    const res = await signedCall({
      secret: this.o.secret,
      method,
      url: `${this.base}${path}`,
      body,
      timeoutMs: this.o.callTimeoutMs,
    });
    // Retried, not failed: the order waits (visible in Temporal UI) until an acquirer answers.
    if (this.o.refuseSimulator && isSimulatorAnswer(res.headers))
      throw new BankCallError(new SimulatorBankRefused(this.base).message);
    // Nothing the bank did not sign is read, whatever its status: a forged refusal or outcome is
    // retried like a 5xx (never taken as an answer), visible in Temporal UI meanwhile.
    const signed = verifyBankAnswer(
      this.o.secret,
      res.requestSignature,
      { timestamp: headerOf(res.headers[BANK_TIMESTAMP_HEADER]), signature: headerOf(res.headers[BANK_SIGNATURE_HEADER]) },
      res.text,
      new Date(),
    );
    if (!signed.ok)
      throw new BankCallError(
        `${method} ${path}: the answer (${res.status}) is not signed by the bank: signature ${signed.problem}`,
      );
    if (res.status === 404 && 'notFound' in o) return o.notFound as N;
    if (res.status >= 500 || res.status === 408 || res.status === 429) {
      throw new BankCallError(`${method} ${path}: the bank answered ${res.status}`);
    }
    if (res.status !== 200) {
      // The status travels in the details: a caller tells "the bank did not act" (400) from a conflict (409).
      throw ApplicationFailure.create({
        message: `${method} ${path}: the bank refused the request with ${res.status}: ${res.text.slice(0, 300)}`,
        type: BankFailure.REQUEST_REFUSED,
        nonRetryable: true,
        details: [res.status],
      });
    }
    const parsed = schema.safeParse(res.json);
    // A garbled answer may be a bank mid-deployment: retried like a 5xx, and visible in Temporal UI meanwhile.
    if (!parsed.success)
      throw new BankCallError(
        `${method} ${path}: the bank's answer does not match the protocol: ${parsed.error.message.slice(0, 300)}`,
      );
    return parsed.data;
  }
}

function toAnswer(
  approved: boolean,
  a: { responseCode: BankResponseCode; bankRefNum: string | null; authCode: string | null; card?: CardSeenByBank },
): BankAnswer {
  return {
    approved,
    response: approved ? 'success' : (DECLINE_RESPONSE[a.responseCode] ?? 'declinedByBank'),
    bankRefNum: approved ? a.bankRefNum : null,
    authCode: approved ? a.authCode : null,
    ...(a.card ? { card: a.card } : {}),
  };
}

/** The instrument as the bank needs it; null when there is no payer yet. No card number ever leaves the gateway. */
export function bankInstrument(i: PaymentInstrument): BankInstrument | null {
  switch (i.kind) {
    case 'UPI':
      return i.viaQr ? { type: 'UPI_INTENT', vpa: i.vpa, qr: true } : { type: 'UPI_COLLECT', vpa: i.vpa };
    case 'CARD':
      return /^\d{6}X+\d{4}$/.test(i.cardToken) ? { type: 'CARD', cardToken: i.cardToken, brand: i.brand } : { type: 'CARD' };
    case 'NETBANKING':
      return { type: 'NETBANKING', bankCode: i.bankCode };
    case 'UPI_QR':
    case 'PAYMENT_LINK':
    case 'CHECKOUT':
    case 'UPI_MANDATE':
      return null;
  }
}

const mandateIdOf = (r: { txnId: string } & MandateRef) =>
  r.merchantIdentifier && r.mandateOrderId ? bankMandateId(r.merchantIdentifier, r.mandateOrderId) : r.txnId;

const headerOf = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
