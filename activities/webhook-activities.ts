import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { isQuickRetry, waitBefore } from '../src/domain/webhook-quick-retries';
import type { SettlementRepository } from '../src/store/settlement-repository';
import type { TransactionRepository } from '../src/store/transaction-repository';
import { ENDPOINT_DISABLED } from '../src/store/webhook-endpoint-repository';
import { isActivityRetry } from './activity-retry';
import { createWebhookAttempt, type AttemptInput, type AttemptOutcome, type WebhookAttemptDeps } from './webhook-attempt';
import { createWebhookPrepareActivities, preparedFrom, type RecordedOutcome } from './webhook-prepare-activities';
import { prepareWebhookCall, type WebhookDeliveryInput } from '../src/temporal/webhook-contract';
import { startWebhookDeliveryWorkflow } from '../src/temporal/webhook-delivery-client';

export interface WebhookActivityDeps extends WebhookAttemptDeps {
  transactions: TransactionRepository;
  /** Settlements, read by the `settlement.processed` call. */
  settlementStore: Pick<SettlementRepository, 'find'>;
  webhookDisableAfterMs: number;
  /** Waits before each attempt (configuration WEBHOOK_RETRY_SCHEDULE). */
  webhookScheduleMs: number[];
  /** Attempts retried by the transaction's workflow itself (configuration WEBHOOK_QUICK_RETRIES_WITHIN). */
  webhookQuickRetriesWithinMs: number;
  /** How long late updates are gathered (configuration WEBHOOK_BATCH_WINDOW). */
  webhookBatchWindowMs: number;
  /** A failed first attempt hands over by starting its delivery workflow through the client. */
  temporal: Client;
  taskQueue: string;
}

export type { PreparedWebhook, RecordedOutcome } from './webhook-prepare-activities';

type PrepareActivities = ReturnType<typeof createWebhookPrepareActivities>;
type WebhookAttempt = ReturnType<typeof createWebhookAttempt>;

/** What the first attempt inside the transaction's workflow came to. */
export type FirstAttemptOutcome =
  | { state: 'delivered'; attempts: number }
  | { state: 'handed over'; attempts: number }
  | { state: 'failed'; reason: string }
  | { state: 'not sent'; reason: string }
  | { state: 'superseded'; attempts: number };

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const attempts = createWebhookAttempt(deps);
  const { beginAttempt, attempt } = attempts;
  const activities = {
    ...createWebhookPrepareActivities(deps),

    /**
     * One attempt: POST the stored txnData, signed now; acknowledged only by a 2xx whose trimmed body is SUCCESS.
     * The attempt is logged, and an acknowledged one ends the delivery, in one store write.
     */
    async attemptWebhook(input: AttemptInput): Promise<AttemptOutcome> {
      // Never send again what the store shows delivered: an attempt repeated after its
      // acknowledgement was recorded (a worker lost the task, a restarted delivery) is acknowledged.
      const reads = input.merchantIdentifier !== undefined ? beginAttempt(input.merchantIdentifier) : null;
      const stored = await deps.webhooks.findSummary(input.deliveryId);
      if (stored?.state === 'delivered') return { acknowledged: true };
      if (stored?.state === 'superseded') return { acknowledged: false, superseded: true };
      const merchantIdentifier = input.merchantIdentifier ?? stored?.merchantIdentifier;
      return attempt(input, merchantIdentifier, reads ?? beginAttempt(merchantIdentifier), {
        attemptsLogged: stored?.attempts.length ?? 0,
        ...(stored?.orderEvent ? { orderEvent: stored.orderEvent } : {}),
      });
    },

    async finishWebhook(input: { deliveryId: string; state: 'delivered' | 'failed' }): Promise<void> {
      await deps.webhooks.finish(input.deliveryId, input.state);
    },
  };

  return { ...activities, deliverWebhookFirstAttempt: firstAttemptActivity(deps, activities, attempts) };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
export type { AttemptOutcome };

/**
 * The first attempts of a delivery, run by the workflow that changed the transaction right after
 * the outcome is stored: the call is built and stored once and attempted; a failed attempt is
 * retried by this activity's own retry while the schedule's waits stay within
 * WEBHOOK_QUICK_RETRIES_WITHIN (isQuickRetry), and after that the delivery is handed to its own
 * workflow (`webhook:<deliveryId>`), which goes on from the next attempt on the schedule. A
 * delivery acknowledged by then costs no workflow.
 *
 * Repeated (a quick retry, or a run repeated after a worker died or a completion was lost), it
 * numbers its attempt from the store's log and never sends what the store already settled: a
 * delivery stored as delivered is reported delivered; one whose next attempt is not a quick retry
 * is handed over without a new attempt. A worker that died between the POST and the store write
 * sends that attempt again, with the same bytes and `X-Webhook-Id`.
 *
 * `recorded`: the outcome's activity calling in-process with what its write returned, so the
 * real-time call is built without reading the order again (never set by a workflow).
 */
function firstAttemptActivity(deps: WebhookActivityDeps, activities: PrepareActivities, attempts: WebhookAttempt) {
  const { beginAttempt, attempt } = attempts;
  return async (input: WebhookDeliveryInput, recorded?: RecordedOutcome): Promise<FirstAttemptOutcome> => {
    // The attempt's reads start beside the call's preparation when the merchant (cached) has an
    // address at all: a merchant without one costs no read more.
    const cached = recorded?.merchant ?? (await deps.merchants.findById(input.merchantIdentifier));
    const reads = cached?.webhookUrl ? beginAttempt(input.merchantIdentifier) : null;
    // A retry of this activity (a quick retry, or after a crash) sends what the store holds: one read
    // instead of building the call again and having its insert refused.
    const storedCall = isActivityRetry() ? await deps.webhooks.find(input.deliveryId) : null;
    const prepared = storedCall
      ? preparedFrom(deps, storedCall)
      : await prepareWebhookCall(input, {
          ...activities,
          prepareRealtimeWebhook: (realtime) => activities.prepareRealtimeWebhook(realtime, recorded),
        });
    if (!prepared.send) return { state: 'not sent', reason: prepared.reason };
    const stored = prepared.stored ?? { state: 'pending', attempts: 0 };
    if (stored.state === 'delivered') return { state: 'delivered', attempts: stored.attempts };
    if (stored.state === 'failed') return { state: 'failed', reason: 'stored as failed already' };
    if (stored.state === 'superseded') return { state: 'superseded', attempts: stored.attempts };
    // The attempt this run makes: the first, or a quick retry after the attempts the store has logged
    // (a retry of this activity, or a run repeated after a worker died); otherwise it hands over.
    const schedule = prepared.scheduleMs;
    const next = stored.attempts + 1;
    let retryAfterMs: number | undefined;
    let made = stored.attempts;
    if (next === 1 || isQuickRetry(schedule, next, deps.webhookQuickRetriesWithinMs)) {
      const outcome = await attempt(
        {
          merchantIdentifier: input.merchantIdentifier,
          deliveryId: input.deliveryId,
          attempt: next,
          url: prepared.url,
          contentType: prepared.contentType,
          body: prepared.body,
        },
        input.merchantIdentifier,
        reads ?? beginAttempt(input.merchantIdentifier),
        { attemptsLogged: stored.attempts, ...(prepared.orderEvent ? { orderEvent: prepared.orderEvent } : {}) },
      );
      if (outcome.acknowledged) return { state: 'delivered', attempts: next };
      if (outcome.superseded) return { state: 'superseded', attempts: made };
      if (outcome.endpointDisabled) return { state: 'failed', reason: ENDPOINT_DISABLED };
      made = next;
      retryAfterMs = outcome.retryAfterMs;
      retryQuicklyIfDue(deps, input.deliveryId, schedule, made, retryAfterMs);
    }
    // The wait before the next attempt (a Retry-After when shorter) as the delivery's start delay,
    // when this run made an attempt; past the schedule the delivery workflow records the failure.
    const startDelayMs = made > stored.attempts ? waitBefore(schedule, made + 1, retryAfterMs) : undefined;
    await startWebhookDeliveryWorkflow(
      deps,
      { ...input, fromAttempt: made + 1, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
      { ...(startDelayMs !== undefined ? { startDelayMs } : {}) },
    );
    return { state: 'handed over', attempts: made };
  };
}

/**
 * A quick retry is this activity's own Temporal retry after the schedule's wait: no workflow,
 * no timer, no server round trip as a local activity. BENIGN: an expected failure, logged at debug.
 */
function retryQuicklyIfDue(
  deps: WebhookActivityDeps,
  deliveryId: string,
  schedule: number[],
  made: number,
  retryAfterMs: number | undefined,
): void {
  if (!isQuickRetry(schedule, made + 1, deps.webhookQuickRetriesWithinMs)) return;
  const wait = waitBefore(schedule, made + 1, retryAfterMs)!;
  throw ApplicationFailure.create({
    type: 'WebhookNotAcknowledged',
    message: `webhook attempt ${made} of ${deliveryId} not acknowledged; attempt ${made + 1} in ${wait} ms`,
    nextRetryDelay: Math.max(wait, 1),
    category: ApplicationFailureCategory.BENIGN,
  });
}
