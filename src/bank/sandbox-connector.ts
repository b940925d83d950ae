import { createHash } from 'node:crypto';
import { SANDBOX_SLOW_BANK_MS, sandboxBankDecision, sandboxConductOf, sandboxMandatePayer } from '../domain/sandbox-bank';
import { SANDBOX_FAIL_REASON } from '../domain/refund';
import { istDate } from '../domain/ist-time';
import type {
  BankAnswer,
  BankConnector,
  BankPayoutAnswer,
  BankPayoutLine,
  BankPayoutRequest,
  BankPayouts,
  BankPaymentRequest,
  BankRefundAnswer,
  BankRefundRequest,
  BankReply,
} from './connector';

/**
 * The sandbox bank: decides from the test instrument (design.md, Sandbox and test instruments) and answers at once, or never
 * for `noanswer@sandbox`. Reference numbers derive from the txnId, so a retried request gets the
 * same answer. The hostile conducts it can play without calling back (sandbox-bank.ts): `slow`
 * answers a second late, `inquiryPending` keeps its approval from the first status inquiry;
 * `afterDeadline` never answers here (only the bank simulator approves after the deadline).
 */
export class SandboxBankConnector implements BankConnector, BankPayouts {
  /** Payouts made by this process, by payoutId, with their IST date (the sandbox's settlement file). */
  private readonly payouts = new Map<string, { line: BankPayoutLine; answer: BankPayoutAnswer; date: string }>();

  /** Approvals of `inquiryPending` payers, with the inquiries asked so far (this process only). */
  private readonly withheld = new Map<string, { answer: BankAnswer; inquiries: number }>();

  /** `refundDelayMs`: how long the sandbox bank takes to settle a refund (a few seconds by default). */
  constructor(
    private readonly refundDelayMs = 0,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Pays at once, with a UTR derived from the payoutId; an account number starting with 000 is
   * refused as invalid (design.md, Sandbox and test instruments). A repeated payoutId answers the first payout.
   */
  async requestPayout(request: BankPayoutRequest): Promise<BankPayoutAnswer> {
    const known = this.payouts.get(request.payoutId);
    if (known) return known.answer;
    const refused = request.accountNumber.startsWith('000');
    const answer: BankPayoutAnswer = refused
      ? {
          status: 'REFUSED',
          utr: null,
          responseCode: '52',
          responseDescription: 'Refused: the beneficiary account is invalid or closed',
        }
      : {
          status: 'PAID',
          utr: `SBX${referenceDigits(request.payoutId).slice(0, 16)}`,
          responseCode: '00',
          responseDescription: 'Paid',
        };
    const { payoutId, merchantIdentifier, amountPaise } = request;
    this.payouts.set(payoutId, {
      line: { payoutId, merchantIdentifier, amountPaise, utr: answer.utr ?? '' },
      answer,
      date: istDate(this.now()),
    });
    return answer;
  }

  async inquirePayout(request: { payoutId: string }): Promise<BankPayoutAnswer | null> {
    return this.payouts.get(request.payoutId)?.answer ?? null;
  }

  async settlementFile(date: string): Promise<BankPayoutLine[]> {
    return [...this.payouts.values()].filter((p) => p.date === date && p.answer.status === 'PAID').map((p) => p.line);
  }

  async requestRefund(request: BankRefundRequest): Promise<BankRefundAnswer> {
    await new Promise((resolve) => setTimeout(resolve, this.refundDelayMs));
    if (request.reason.trim().toLowerCase() === SANDBOX_FAIL_REASON) return { approved: false };
    return { approved: true, rrn: referenceDigits(request.refundId).slice(0, 12) };
  }

  async requestMandateApproval(request: { payerVpa: string }): Promise<{ approved: boolean }> {
    return { approved: sandboxMandatePayer(request.payerVpa).approves };
  }

  async notifyMandateDebit(request: { payerVpa: string }): Promise<{ accepted: boolean }> {
    return { accepted: sandboxMandatePayer(request.payerVpa).acceptsNotify };
  }

  /** Answers at once or never, but an `inquiryPending` approval: PENDING (null) first, final after. */
  async inquirePayment(request: { txnId: string }): Promise<BankAnswer | null> {
    const withheld = this.withheld.get(request.txnId);
    if (!withheld) return null;
    return withheld.inquiries++ === 0 ? null : withheld.answer;
  }

  async requestPayment(request: BankPaymentRequest): Promise<BankReply> {
    const decision = sandboxBankDecision(request.instrument, request.amountPaise);
    if (!decision.answered) return { kind: 'awaiting' };
    const digits = referenceDigits(request.txnId);
    const answer: BankAnswer = {
      approved: decision.approved,
      response: decision.response,
      bankRefNum: decision.approved ? digits.slice(0, 12) : null,
      authCode: decision.approved ? digits.slice(12, 18) : null,
    };
    const conduct = decision.approved && request.instrument.kind === 'UPI' ? sandboxConductOf(request.instrument.vpa) : undefined;
    if (conduct === 'afterDeadline') return { kind: 'awaiting' };
    if (conduct === 'inquiryPending') {
      if (!this.withheld.has(request.txnId)) this.withheld.set(request.txnId, { answer, inquiries: 0 });
      return { kind: 'awaiting' };
    }
    if (conduct === 'slow') await new Promise((resolve) => setTimeout(resolve, SANDBOX_SLOW_BANK_MS));
    return { kind: 'answered', answer };
  }
}

/** 18 digits derived from an id, so a retried request gets the same reference numbers. */
function referenceDigits(id: string): string {
  return BigInt(`0x${createHash('sha256').update(id).digest('hex').slice(0, 15)}`)
    .toString()
    .padStart(18, '0');
}
