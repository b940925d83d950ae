import { ApplicationFailure } from '@temporalio/activity';
import type { PaymentInstrument } from '../src/domain/instrument';
import { PaymentResponse } from '../src/domain/response-codes';
import type { PaymentOutcome } from '../src/domain/transaction';
import { TransactionNotFoundError, type TransactionRepository } from '../src/store/transaction-repository';
import type { BankAnswer, BankConnector, BankPaymentRequest, BankReply } from './bank-connector';

export interface PaymentActivityDeps {
  transactions: TransactionRepository;
  bank: BankConnector;
  now: () => Date;
}

/** The bank's answer, or the service's own verdict when the bank stayed silent (`null`). */
export function outcomeOf(answer: BankAnswer | null, expired = false): PaymentOutcome {
  if (expired) {
    return {
      status: 'Failure',
      responseCode: PaymentResponse.qrExpired.code,
      responseDescription: PaymentResponse.qrExpired.description,
      bankRefNum: null,
      authCode: null,
      // The service decided, not a bank: a reconciliation file may still show it paid.
      markedFailedByService: true,
    };
  }
  if (!answer) {
    return {
      status: 'Failure',
      responseCode: PaymentResponse.bankNoAnswer.code,
      responseDescription: PaymentResponse.bankNoAnswer.description,
      bankRefNum: null,
      authCode: null,
      markedFailedByService: true,
    };
  }
  const response = PaymentResponse[answer.response];
  return {
    status: answer.approved ? 'Success' : 'Failure',
    responseCode: response.code,
    responseDescription: response.description,
    bankRefNum: answer.bankRefNum,
    authCode: answer.authCode,
    markedFailedByService: false,
    ...(answer.delayed && answer.approved ? { delayedSuccess: true } : {}),
  };
}

export interface RecordOutcomeInput {
  merchantIdentifier: string;
  orderId: string;
  txnId: string;
  /** The bank's answer, or null when the bank stayed silent past the timeout. */
  answer: BankAnswer | null;
  /** A dynamic QR that nobody paid in time. */
  expired?: boolean;
  /** A dynamic QR's payer, recorded with the outcome. */
  instrument?: PaymentInstrument;
}

export function createPaymentActivities({ transactions, bank, now }: PaymentActivityDeps) {
  return {
    async requestBankPayment(request: BankPaymentRequest): Promise<BankReply> {
      return bank.requestPayment(request);
    },

    /** Records the first outcome of a Pending payment; replays return the stored result unchanged. */
    async recordPaymentOutcome(input: RecordOutcomeInput): Promise<{ status: string; applied: boolean }> {
      const outcome = {
        ...outcomeOf(input.answer, input.expired),
        ...(input.instrument ? { instrument: input.instrument } : {}),
      };
      return recordPendingOutcome(transactions, input, outcome, now());
    },
  };
}

/**
 * Records the first outcome of a Pending order (payment or mandate debit); a replay returns the
 * stored status with `applied: false`.
 */
export async function recordPendingOutcome(
  transactions: TransactionRepository,
  order: { merchantIdentifier: string; orderId: string; txnId: string },
  outcome: PaymentOutcome,
  at: Date,
): Promise<{ status: string; applied: boolean }> {
  try {
    const { applied, transaction } = await transactions.recordOutcome(order, outcome, at, ['Pending']);
    return { status: transaction.status, applied };
  } catch (e) {
    // Retrying cannot make a missing transaction appear: fail the workflow for an operator to see.
    if (e instanceof TransactionNotFoundError) throw ApplicationFailure.nonRetryable(e.message, e.name);
    throw e;
  }
}

export type PaymentActivities = ReturnType<typeof createPaymentActivities>;
