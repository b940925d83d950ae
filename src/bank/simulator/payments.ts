import type { z } from 'zod';
import type { BankCallback, BankPaymentResponse, BankResponseCode, paymentRequestSchema } from '../protocol';
import type { PaymentEntry } from './books';
import { faultOf, type Fault } from './faults';
import { decidePayment, decideRedirect, describeCode, referenceDigits, type CardSeen } from './outcomes';
import { requireSame, type SimulatorDesk } from './desk';

/** The simulator's payments: answering a request, settling a PENDING or REDIRECT one, its callback. */
export function paymentDesk(d: SimulatorDesk) {
  const { books, conduct, log, later, notify, payerDelayMs } = d;

  /** Commits the final answer of a payment that was PENDING or REDIRECT; `callback` false for a lost one. */
  function settlePayment(
    entry: PaymentEntry,
    verdict: { approved: boolean; code: BankResponseCode; card?: CardSeen },
    o2: { callback: boolean; faults: Fault[] },
  ): boolean {
    if (entry.answer.status === 'APPROVED' || entry.answer.status === 'DECLINED') return false;
    entry.answer = paymentAnswer(entry, verdict.approved, verdict.code, verdict.card);
    entry.committedAt = new Date().toISOString();
    entry.awaitingPayer = false;
    log(`payment ${entry.request.txnId} ${entry.answer.status} (${entry.request.amountPaise} paise)`);
    if (o2.callback) notify(entry.request.callbackUrl, paymentCallback(entry), o2.faults);
    return true;
  }

  function createPayment(body: z.infer<typeof paymentRequestSchema>, ruleFaults: Fault[]): BankPaymentResponse {
    const existing = books.payments.get(body.txnId);
    if (existing) {
      requireSame('txnId', existing.request, body, ['merchantIdentifier', 'amountPaise']);
      existing.requests++;
      return existing.answer;
    }
    // A rule's fault wins over the same kind from the payer's conduct.
    const requestFaults = [
      ...ruleFaults,
      ...conduct.faultsFor(body.txnId, body.instrument).filter((c) => !faultOf(ruleFaults, c.kind)),
    ];
    const pending = (status: 'PENDING' | 'REDIRECT') => pendingAnswer(body, status);
    const entry: PaymentEntry = {
      request: body,
      answer: pending('PENDING'),
      committedAt: null,
      requests: 1,
      inquiries: 0,
      awaitingPayer: false,
    };
    books.payments.set(body.txnId, entry);
    const decision = decidePayment(body.instrument, body.amountPaise);
    const silence = faultOf(requestFaults, 'silence');
    const late = faultOf(requestFaults, 'late');
    const lost = faultOf(requestFaults, 'lostCallback');

    if (decision.kind === 'redirect') {
      entry.answer = {
        ...pending('REDIRECT'),
        redirect: { url: `${d.baseUrl()}/pages/pay/${encodeURIComponent(body.txnId)}`, method: 'GET', fields: {} },
      };
      entry.awaitingPayer = body.returnUrl !== undefined;
      // No browser behind this payment: the sandbox payer completes the bank page by itself.
      if (!entry.awaitingPayer && !silence) {
        later(late?.ms ?? payerDelayMs, () =>
          settlePayment(entry, decideRedirect(body.instrument), { callback: !lost, faults: requestFaults }),
        );
      }
      return entry.answer;
    }
    if (decision.kind === 'silent' || silence) return entry.answer;
    const onInquiry = faultOf(requestFaults, 'settleOnInquiry');
    if (onInquiry) {
      conduct.hold(body.txnId, onInquiry.afterMs, () =>
        settlePayment(entry, decision, { callback: true, faults: requestFaults }),
      );
      return entry.answer;
    }
    if (lost) {
      settlePayment(entry, decision, { callback: false, faults: requestFaults });
      return pending('PENDING');
    }
    if (late) {
      later(late.ms, () => settlePayment(entry, decision, { callback: true, faults: requestFaults }));
      return entry.answer;
    }
    entry.answer = paymentAnswer(entry, decision.approved, decision.code);
    entry.committedAt = new Date().toISOString();
    // Answered in the response: a callback only when a fault asks for copies of it.
    if (faultOf(requestFaults, 'duplicateCallback') || faultOf(requestFaults, 'outOfOrderCallback')) {
      notify(body.callbackUrl, paymentCallback(entry), requestFaults);
    }
    return entry.answer;
  }

  return { settlePayment, createPayment };
}

export type PaymentDesk = ReturnType<typeof paymentDesk>;

function paymentAnswer(entry: PaymentEntry, approved: boolean, code: BankResponseCode, card?: CardSeen): BankPaymentResponse {
  const digits = referenceDigits(entry.request.txnId);
  return {
    txnId: entry.request.txnId,
    amountPaise: entry.request.amountPaise,
    status: approved ? 'APPROVED' : 'DECLINED',
    responseCode: code,
    responseDescription: describeCode(code),
    bankRefNum: approved ? digits.slice(0, 12) : null,
    authCode: approved ? digits.slice(12, 18) : null,
    ...(card ? { card } : {}),
  };
}

function paymentCallback(entry: PaymentEntry): BankCallback {
  const a = entry.answer;
  return {
    type: 'payment',
    eventId: `evt-pay-${entry.request.txnId}`,
    txnId: a.txnId,
    merchantIdentifier: entry.request.merchantIdentifier,
    ...(entry.request.orderId ? { orderId: entry.request.orderId } : {}),
    amountPaise: a.amountPaise,
    status: a.status === 'APPROVED' ? 'APPROVED' : 'DECLINED',
    responseCode: a.responseCode,
    responseDescription: a.responseDescription,
    bankRefNum: a.bankRefNum,
    authCode: a.authCode,
    ...(a.card ? { card: a.card } : {}),
  };
}

function pendingAnswer(body: z.infer<typeof paymentRequestSchema>, status: 'PENDING' | 'REDIRECT'): BankPaymentResponse {
  return {
    txnId: body.txnId,
    amountPaise: body.amountPaise,
    status,
    responseCode: '09',
    responseDescription: describeCode('09'),
    bankRefNum: null,
    authCode: null,
  };
}
