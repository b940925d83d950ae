import type {
  BankCallback,
  BankDebitRequestBody,
  BankDebitResponse,
  BankMandateRequestBody,
  BankMandateResponse,
  BankNotificationResponse,
  BankPaymentRequestBody,
  BankPaymentResponse,
  BankRefundRequestBody,
  BankRefundResponse,
} from '../protocol';

/**
 * The simulator's own books: every payment, refund, mandate, notification and debit it committed,
 * keyed by the gateway's idempotency id. Tests read money from here (GET /admin/books), never from
 * the gateway, so "paid exactly once" is checked against what the bank itself holds.
 */
export interface PaymentEntry {
  request: BankPaymentRequestBody;
  /** What the bank answers now (a status inquiry, a repeat of the request). */
  answer: BankPaymentResponse;
  /** The outcome decided for a REDIRECT or PENDING payment, committed when the payer (or a late answer) comes. */
  committedAt: string | null;
  /** How many times the gateway sent this txnId (1 + retries). */
  requests: number;
  /** Status inquiries the gateway made (GET /v1/payments/:txnId). */
  inquiries: number;
  /** A payer must complete the bank page (REDIRECT with a returnUrl). */
  awaitingPayer: boolean;
}

export interface RefundEntry {
  request: BankRefundRequestBody;
  answer: BankRefundResponse;
  merchantIdentifier: string;
  requests: number;
}

export interface MandateEntry {
  request: BankMandateRequestBody;
  answer: BankMandateResponse;
  requests: number;
}

export interface NotificationEntry {
  mandateId: string;
  amountPaise: number;
  executeAt: string;
  answer: BankNotificationResponse;
  requests: number;
}

export interface DebitEntry {
  mandateId: string;
  request: BankDebitRequestBody;
  answer: BankDebitResponse;
  requests: number;
}

export interface CallbackRecord {
  callback: BankCallback;
  url: string;
  /** Why it was sent: the final answer, or a copy a fault asked for. */
  reason: 'final' | 'duplicate' | 'outOfOrder';
  attempts: { at: string; status: number | null; body?: string; error?: string }[];
  state: 'sending' | 'delivered' | 'refused' | 'gaveUp';
}

export interface BooksTotals {
  payments: number;
  paidPaise: number;
  declined: number;
  pending: number;
  refunds: number;
  refundedPaise: number;
  debits: number;
  debitedPaise: number;
  /** Requests the gateway repeated (retries after a timeout, a 5xx or a dropped connection). */
  repeatedRequests: number;
}

export class SimulatorBooks {
  readonly payments = new Map<string, PaymentEntry>();
  readonly refunds = new Map<string, RefundEntry>();
  readonly mandates = new Map<string, MandateEntry>();
  readonly notifications = new Map<string, NotificationEntry>();
  readonly debits = new Map<string, DebitEntry>();
  readonly callbacks: CallbackRecord[] = [];

  /** What was approved and not refunded of a payment: what a new refund may take. */
  refundableOf(txnId: string): number {
    const p = this.payments.get(txnId);
    if (!p || p.answer.status !== 'APPROVED') return 0;
    let taken = 0;
    for (const r of this.refunds.values()) {
      if (r.request.txnId === txnId && r.answer.status !== 'DECLINED') taken += r.request.amountPaise;
    }
    return p.request.amountPaise - taken;
  }

  merchantOf(txnId: string): string | undefined {
    return this.payments.get(txnId)?.request.merchantIdentifier ?? this.debits.get(txnId)?.request.merchantIdentifier;
  }

  /** Everything held, optionally for one merchant, with its totals. */
  snapshot(merchantIdentifier?: string) {
    const mine = <T>(entries: Iterable<T>, merchantOf: (e: T) => string | undefined) =>
      [...entries].filter((e) => merchantIdentifier === undefined || merchantOf(e) === merchantIdentifier);
    const payments = mine(this.payments.values(), (p) => p.request.merchantIdentifier);
    const refunds = mine(this.refunds.values(), (r) => r.merchantIdentifier);
    const mandates = mine(this.mandates.values(), (m) => m.request.merchantIdentifier);
    const debits = mine(this.debits.values(), (d) => d.request.merchantIdentifier);
    const notifications = mine(this.notifications.values(), (n) => this.mandates.get(n.mandateId)?.request.merchantIdentifier);
    const callbacks = mine(this.callbacks, (c) => callbackMerchant(this, c.callback));
    const approved = payments.filter((p) => p.answer.status === 'APPROVED');
    const refunded = refunds.filter((r) => r.answer.status === 'APPROVED');
    const debited = debits.filter((d) => d.answer.status === 'APPROVED');
    const totals: BooksTotals = {
      payments: payments.length,
      paidPaise: sum(approved.map((p) => p.request.amountPaise)),
      declined: payments.filter((p) => p.answer.status === 'DECLINED').length,
      pending: payments.filter((p) => p.answer.status === 'PENDING' || p.answer.status === 'REDIRECT').length,
      refunds: refunds.length,
      refundedPaise: sum(refunded.map((r) => r.request.amountPaise)),
      debits: debits.length,
      debitedPaise: sum(debited.map((d) => d.request.amountPaise)),
      repeatedRequests: sum([...payments, ...refunds, ...mandates, ...debits, ...notifications].map((e) => e.requests - 1)),
    };
    return { totals, payments, refunds, mandates, notifications, debits, callbacks };
  }

  clear(): void {
    for (const m of [this.payments, this.refunds, this.mandates, this.notifications, this.debits]) m.clear();
    this.callbacks.length = 0;
  }
}

function callbackMerchant(books: SimulatorBooks, c: BankCallback): string | undefined {
  switch (c.type) {
    case 'payment':
      return c.merchantIdentifier;
    case 'refund':
      return books.merchantOf(c.txnId);
    case 'mandate':
      return books.mandates.get(c.mandateId)?.request.merchantIdentifier;
    case 'debit':
      return books.debits.get(c.debitId)?.request.merchantIdentifier;
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
