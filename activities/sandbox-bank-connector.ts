import { createHash } from 'node:crypto';
import { sandboxBankDecision, sandboxMandatePayer } from '../src/domain/sandbox-bank';
import { SANDBOX_FAIL_REASON } from '../src/domain/refund';
import type {
  BankAnswer,
  BankConnector,
  BankPaymentRequest,
  BankRefundAnswer,
  BankRefundRequest,
  BankReply,
} from './bank-connector';

/**
 * The sandbox bank: decides from the test instrument (DECISIONS.md) and answers at once, or never
 * for `noanswer@sandbox`. Reference numbers derive from the txnId, so a retried request gets the
 * same answer.
 */
export class SandboxBankConnector implements BankConnector {
  /** `refundDelayMs`: how long the sandbox bank takes to settle a refund (a few seconds by default). */
  constructor(private readonly refundDelayMs = 0) {}

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

  /** The sandbox answers at once or never: a payment still waiting has no answer to find. */
  async inquirePayment(): Promise<BankAnswer | null> {
    return null;
  }

  async requestPayment(request: BankPaymentRequest): Promise<BankReply> {
    const decision = sandboxBankDecision(request.instrument, request.amountPaise);
    if (!decision.answered) return { kind: 'awaiting' };
    const digits = referenceDigits(request.txnId);
    return {
      kind: 'answered',
      answer: {
        approved: decision.approved,
        response: decision.response,
        bankRefNum: decision.approved ? digits.slice(0, 12) : null,
        authCode: decision.approved ? digits.slice(12, 18) : null,
      },
    };
  }
}

/** 18 digits derived from an id, so a retried request gets the same reference numbers. */
function referenceDigits(id: string): string {
  return BigInt(`0x${createHash('sha256').update(id).digest('hex').slice(0, 15)}`)
    .toString()
    .padStart(18, '0');
}
