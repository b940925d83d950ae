import { createHash } from 'node:crypto';
import { sandboxBankDecision } from '../src/domain/sandbox-bank';
import type { BankConnector, BankPaymentRequest, BankReply } from './bank-connector';

/**
 * The sandbox bank: decides from the test instrument (DECISIONS.md) and answers at once, or never
 * for `noanswer@sandbox`. Reference numbers derive from the txnId, so a retried request gets the
 * same answer.
 */
export class SandboxBankConnector implements BankConnector {
  async requestPayment(request: BankPaymentRequest): Promise<BankReply> {
    const decision = sandboxBankDecision(request.instrument, request.amountPaise);
    if (!decision.answered) return { kind: 'awaiting' };
    const digits = BigInt(`0x${createHash('sha256').update(request.txnId).digest('hex').slice(0, 15)}`)
      .toString()
      .padStart(18, '0');
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
