import {
  ActivityFailure,
  CancellationScope,
  condition,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { BankAnswer, BankReply } from '../src/bank/connector';
import type { MandateActivities } from '../activities/mandate-activities';
import { CONFIRMATION_WINDOW_MS, debitAttemptId, SANDBOX_MANDATE_BANK } from '../src/domain/mandate';
import { firstOffPeakInstant } from '../src/domain/peak-windows';
import { confirmDebitUpdate, mandateDebitStageQuery, type MandateDebitStage } from '../src/temporal/mandate-messages';
import type { MandateDebitInput, MandateDebitOutcome, MandateDebitResult } from '../src/temporal/mandate-debit-contract';
import { TxnStatusKey } from '../src/temporal/search-attributes';
import { realtimeWebhookDue, startRealtimeWebhook } from './realtime-webhook';

const { recordMandateDebitOutcome, requestMandateDebit } = proxyActivities<MandateActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One debit under a mandate (workflow id `mandate-debit:<merchant>:<orderId>`): a durable timer until
 * executionDate, the merchant's confirmation when autoExecute is false, then one attempt and at most
 * `maxRetries` retries, each outside the peak windows (a retry or a late timer that lands in one
 * waits for it to end). The result is recorded on the debit's transaction exactly once and sent as
 * a real-time webhook. Cancelled (the mandate was revoked or expired) before it debits, or finding
 * its mandate no longer ACTIVE in the store when an attempt is due, it records the cancellation
 * (1124) instead, without asking the bank.
 */
export async function mandateDebitWorkflow(input: MandateDebitInput): Promise<MandateDebitOutcome> {
  let stage: MandateDebitStage = 'scheduled';
  let confirmed = false;
  let attempts = 0;
  setHandler(mandateDebitStageQuery, () => stage);
  setHandler(
    confirmDebitUpdate,
    () => {
      confirmed = true;
      return 'confirmed' as const;
    },
    {
      validator: () => {
        if (stage !== 'awaiting-confirmation' || confirmed) throw new Error('this debit is not awaiting confirmation');
      },
    },
  );

  const finish = async (result: MandateDebitResult, answer: BankAnswer | null): Promise<MandateDebitOutcome> => {
    stage = 'recording';
    const recorded = await recordMandateDebitOutcome({
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      txnId: input.txnId,
      result,
      answer,
    });
    upsertSearchAttributes([{ key: TxnStatusKey, value: recorded.status }]);
    if (input.realtimeWebhook !== false && realtimeWebhookDue(recorded)) await startRealtimeWebhook(input);
    stage = 'done';
    return { result, status: recorded.status, attempts };
  };

  let answer: BankAnswer | null = null;
  try {
    await sleepUntil(input.executeAtMs);
    if (!input.autoExecute) {
      stage = 'awaiting-confirmation';
      if (!(await condition(() => confirmed, CONFIRMATION_WINDOW_MS))) {
        log.info('the merchant never confirmed the debit; it lapses', { orderId: input.orderId });
        return await CancellationScope.nonCancellable(() => finish('executionLapsed', null));
      }
    }
    for (;;) {
      if (!input.customerInitiated) await sleepUntil(firstOffPeakInstant(new Date()).getTime());
      stage = 'debiting';
      // Each attempt asks the bank only while the mandate is ACTIVE in the store and, when retried
      // by Temporal, never inside a peak window (requestMandateDebit).
      const sent = await refusalIsAFailedAttempt(input.txnId, () => debitWhileMandateActive(input, attempts));
      if (!sent) {
        log.info('the mandate is no longer active; the debit is cancelled without asking the bank', { orderId: input.orderId });
        return await CancellationScope.nonCancellable(() => finish('executionCancelled', null));
      }
      answer = sent.answer;
      attempts++;
      if (answer?.approved || attempts > input.maxRetries) break;
      stage = 'scheduled';
      await sleep(input.retryIntervalMs);
    }
  } catch (e) {
    if (!isCancellation(e)) throw e;
    // Revoked or expired before the debit ran (a debit under way is never cut off: see debitWhileMandateActive).
    log.info('mandate ended before the debit ran; cancelling it', { orderId: input.orderId });
    return CancellationScope.nonCancellable(() => finish('executionCancelled', null));
  }
  return CancellationScope.nonCancellable(() => finish(answer?.approved ? 'executed' : 'executionFailed', answer));
}

/**
 * Only a non-retryable failure ends an attempt's activity (its retry policy has no attempt limit):
 * the bank refused the request. That attempt failed (no answer), like a decline: the debit retries
 * per its schedule or ends executionFailed (1112) with its webhook, instead of failing the workflow
 * and staying Pending for ever.
 */
async function refusalIsAFailedAttempt<T>(txnId: string, attempt: () => Promise<T>): Promise<T | { answer: null }> {
  try {
    return await attempt();
  } catch (e) {
    if (!(e instanceof ActivityFailure) || isCancellation(e)) throw e;
    log.warn('the bank refused the debit request; this attempt failed', { txnId, error: String(e.cause) });
    return { answer: null };
  }
}

/**
 * One attempt, made only while the mandate is ACTIVE (null: it is not, and the bank was not asked).
 * Not cancellable once under way: a debit the bank took must be recorded. A revoke that commits
 * meanwhile waits for it (the fence of claimDebitAtBank), so no debit follows an acknowledged revoke.
 */
async function debitWhileMandateActive(input: MandateDebitInput, attempt: number): Promise<{ answer: BankAnswer | null } | null> {
  const sent = await CancellationScope.nonCancellable(() =>
    requestMandateDebit({ request: bankRequest(input, attempt), offPeak: !input.customerInitiated }),
  );
  return sent.kind === 'sent' ? { answer: answerOf(sent.reply) } : null;
}

function bankRequest(input: MandateDebitInput, attempt: number) {
  return {
    // Each attempt is its own bank request: a retry must not be taken for a repeat of a declined one.
    txnId: debitAttemptId(input.txnId, attempt),
    merchantIdentifier: input.merchantIdentifier,
    amountPaise: input.amountPaise,
    instrument: {
      kind: 'UPI_MANDATE' as const,
      vpa: input.payerVpa,
      bankName: SANDBOX_MANDATE_BANK,
      mandateOrderId: input.mandateOrderId,
    },
  };
}

/** A bank that does not answer at once has failed this attempt; the next one asks again. */
const answerOf = (reply: BankReply): BankAnswer | null => (reply.kind === 'answered' ? reply.answer : null);

/** A durable timer to an instant of workflow time (none when it has passed). */
async function sleepUntil(atMs: number): Promise<void> {
  const wait = atMs - Date.now();
  if (wait > 0) await sleep(wait);
}
