import { condition, log, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { BankAnswer, BankPaymentRequest } from '../activities/bank-connector';
import type { PaymentActivities } from '../activities/payment-activities';
import { bankAnswerSignal, paymentStageQuery, type PaymentStage } from '../src/temporal/payment-messages';
import { TxnStatusKey } from '../src/temporal/search-attributes';

export interface PaymentWorkflowInput extends BankPaymentRequest {
  orderId: string;
  /** How long to wait for a bank that accepted the request but has not answered. */
  bankTimeoutMs: number;
}

export interface PaymentWorkflowResult {
  txnId: string;
  status: string;
  markedFailedByService: boolean;
}

const { requestBankPayment, recordPaymentOutcome } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  // Transient faults (store or bank unreachable) retry until they heal; the workflow never gives up
  // on recording an outcome, because a payment must not be left Pending forever.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One payment of one order (workflow id `payment:<merchant>:<orderId>`): ask the bank, wait for a
 * late answer up to the configured timeout, then record Success or Failure exactly once.
 */
export async function paymentWorkflow(input: PaymentWorkflowInput): Promise<PaymentWorkflowResult> {
  let stage: PaymentStage = 'requesting-bank';
  let lateAnswer: BankAnswer | undefined;
  setHandler(paymentStageQuery, () => stage);
  setHandler(bankAnswerSignal, (answer) => {
    lateAnswer ??= answer; // the bank's first word counts; duplicates of a callback are ignored
  });

  const reply = await requestBankPayment({
    txnId: input.txnId,
    merchantIdentifier: input.merchantIdentifier,
    amountPaise: input.amountPaise,
    instrument: input.instrument,
  });

  let answer: BankAnswer | null;
  if (reply.kind === 'answered') {
    answer = reply.answer;
  } else {
    stage = 'awaiting-bank';
    const answered = await condition(() => lateAnswer !== undefined, input.bankTimeoutMs);
    answer = answered ? lateAnswer! : null;
    if (!answered)
      log.info('bank stayed silent; marking the payment failed', { txnId: input.txnId, bankTimeoutMs: input.bankTimeoutMs });
  }

  stage = 'recording';
  const recorded = await recordPaymentOutcome({
    merchantIdentifier: input.merchantIdentifier,
    orderId: input.orderId,
    txnId: input.txnId,
    answer,
  });
  upsertSearchAttributes([{ key: TxnStatusKey, value: recorded.status }]);
  stage = 'done';
  return { txnId: input.txnId, status: recorded.status, markedFailedByService: answer === null };
}
