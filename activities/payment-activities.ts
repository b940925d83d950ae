import { ApplicationFailure } from '@temporalio/activity';
import { withCardSeen } from '../src/bank/card-at-bank';
import type { PaymentInstrument } from '../src/domain/instrument';
import { PaymentResponse } from '../src/domain/response-codes';
import type { PaymentOutcome } from '../src/domain/transaction';
import type { MerchantRepository } from '../src/store/merchant-repository';
import { TransactionNotFoundError, type OrderRef, type TransactionRepository } from '../src/store/transaction-repository';
import { delayedSuccessUpdate, reportLateUpdate, type LateUpdateDeps } from '../src/usecases/report-late-update';
import type { BankAnswer, BankConnector, BankPaymentRequest, BankReply } from '../src/bank/connector';
import { PaymentFailure } from '../src/temporal/payment-contract';
import { realtimeDeliveryId, type WebhookDeliveryInput } from '../src/temporal/webhook-contract';
import type { RecordedOutcome } from './webhook-activities';
import { isActivityRetry } from './activity-retry';

export interface PaymentActivityDeps extends LateUpdateDeps {
  transactions: TransactionRepository;
  merchants: Pick<MerchantRepository, 'findById'>;
  bank: BankConnector;
  now: () => Date;
  /**
   * The real-time webhook's first attempt, its quick retries and its hand-over (the webhook
   * activities' deliverWebhookFirstAttempt), made by the outcome's activity when the workflow asks
   * (`deliverRealtime`). Absent (a test's own activities): the workflow's own step delivers.
   */
  deliverWebhookFirstAttempt?: (input: WebhookDeliveryInput, recorded?: RecordedOutcome) => Promise<unknown>;
}

/**
 * What recording an outcome reports to the workflow; `realtime: false` when no real-time webhook is
 * due from the workflow: the outcome went to the non-real-time webhook, the merchant has no webhook
 * URL, or this activity made the first attempt itself (`deliverRealtime`). The workflow then
 * schedules no delivery step (realtimeWebhookDue): a payment runs one local activity fewer
 * (docs/contributors/benchmarks.md).
 */
export interface OutcomeRecorded {
  status: string;
  applied: boolean;
  realtime?: false;
}

/**
 * The bank's answer, or the service's own verdict when the bank stayed silent (`null`) or refused
 * the request, or how an order that waited for its payer ended without one: expired, or cancelled by
 * the payer.
 */
export function outcomeOf(
  answer: BankAnswer | null,
  how: { expired?: boolean; cancelled?: boolean; refusedByBank?: boolean } = {},
): PaymentOutcome {
  if (how.refusedByBank && !answer) {
    return {
      status: 'Failure',
      responseCode: PaymentResponse.refusedByBank.code,
      responseDescription: PaymentResponse.refusedByBank.description,
      bankRefNum: null,
      authCode: null,
      // The bank refused the request, it gave no final answer about a payment: a later approval (a
      // callback, a reconciliation line) still becomes a delayed success.
      markedFailedByService: true,
    };
  }
  if (how.cancelled) {
    return {
      status: 'Failure',
      responseCode: PaymentResponse.cancelledByPayer.code,
      responseDescription: PaymentResponse.cancelledByPayer.description,
      bankRefNum: null,
      authCode: null,
      // The payer decided, not a bank. A bank may still approve an intent or QR the page handed out
      // before the cancel: mayBecomeDelayedSuccess (src/domain/transaction.ts) takes 102 too.
      markedFailedByService: false,
    };
  }
  if (how.expired) {
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
  /** A hosted checkout whose payer cancelled it. */
  cancelled?: boolean;
  /** The bank refused the payment request (a non-retryable failure): Failure 1022, decided by the service. */
  refusedByBank?: boolean;
  /** A dynamic QR's payer, recorded with the outcome. */
  instrument?: PaymentInstrument;
  /**
   * The order's amount as the workflow started with it: lets the outcome's write claim the daily
   * figures' change itself (TransactionRepository.recordOutcome). Absent from workflows started
   * before; the store's amount is what counts either way.
   */
  amountPaise?: number;
  /**
   * The workflow's real-time webhook is made here, right after the outcome's write: the first
   * attempt, its quick retries (this activity's own retries, which find the outcome recorded) or the
   * hand-over to the delivery workflow. Absent (workflows started before, or without real-time
   * webhooks): the workflow's own step does it, as before.
   */
  deliverRealtime?: true;
}

export function createPaymentActivities(deps: PaymentActivityDeps) {
  const { transactions, bank, now } = deps;
  return {
    async requestBankPayment(request: BankPaymentRequest): Promise<BankReply> {
      return bank.requestPayment(request);
    },

    /**
     * Records the first outcome of a Pending payment; replays return the stored result unchanged.
     * A success a reconciliation file reported (the bank's answer marked `delayed`) is a delayed
     * success (design.md, Transactions and states): reported here to the non-real-time webhook,
     * also by a retry after the write (at least once), and never sent in real time.
     */
    async recordPaymentOutcome(input: RecordOutcomeInput): Promise<OutcomeRecorded> {
      const outcome = {
        ...outcomeOf(input.answer, input),
        ...(input.instrument ? { instrument: withCardSeen(input.instrument, input.answer?.card) } : {}),
      };
      const { applied, transaction } = await recordPending(transactions, input, outcome, now());
      if (outcome.delayedSuccess && transaction.delayedSuccess) {
        await reportLateUpdate(deps, transaction.merchantIdentifier, delayedSuccessUpdate(transaction, now()));
        return { status: transaction.status, applied, realtime: false };
      }
      // The same (cached) read the delivery would make first: without an address there is nothing to send.
      const merchant = await deps.merchants.findById(input.merchantIdentifier);
      if (merchant && !merchant.webhookUrl) return { status: transaction.status, applied, realtime: false };
      if (input.deliverRealtime && deps.deliverWebhookFirstAttempt && transaction.status !== 'Pending') {
        const order = { merchantIdentifier: input.merchantIdentifier, orderId: input.orderId };
        // The transaction as this write left it (or found it, on a replay): the call says what was recorded.
        const recorded = merchant ? { transaction, merchant } : undefined;
        await deps.deliverWebhookFirstAttempt({ deliveryId: realtimeDeliveryId(order), ...order }, recorded);
        return { status: transaction.status, applied, realtime: false };
      }
      return { status: transaction.status, applied };
    },
  };
}

/**
 * Records the first outcome of a Pending order (payment or mandate debit); a replay returns the
 * stored status with `applied: false`.
 */
export async function recordPendingOutcome(
  transactions: TransactionRepository,
  order: OrderRef & { txnId: string },
  outcome: PaymentOutcome,
  at: Date,
): Promise<{ status: string; applied: boolean }> {
  const { applied, transaction } = await recordPending(transactions, order, outcome, at);
  return { status: transaction.status, applied };
}

async function recordPending(
  transactions: TransactionRepository,
  order: OrderRef & { txnId: string; amountPaise?: number },
  outcome: PaymentOutcome,
  at: Date,
) {
  // A retry (a quick webhook retry, mostly) finds its outcome recorded: one read instead of two refused writes.
  const known = {
    ...(order.amountPaise === undefined ? {} : { amountPaise: order.amountPaise }),
    mayBeRecorded: isActivityRetry(),
  };
  try {
    return await transactions.recordOutcome(order, outcome, at, ['Pending'], known);
  } catch (e) {
    // Retrying cannot make a missing transaction appear: fail the workflow for an operator to see.
    if (e instanceof TransactionNotFoundError)
      throw ApplicationFailure.nonRetryable(e.message, PaymentFailure.TRANSACTION_NOT_FOUND);
    throw e;
  }
}

export type PaymentActivities = ReturnType<typeof createPaymentActivities>;
