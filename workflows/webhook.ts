/**
 * Webhook delivery after a failed first attempt, by hand-over: the first attempt is an activity of
 * the workflow that changed the transaction; a failed one starts this workflow
 * (`webhook:<deliveryId>`), which goes on with durable timers and one local activity per attempt.
 * The other design, the whole delivery as one activity of the transaction's workflow retried with
 * `nextRetryDelay`, costs fewer workflow tasks and history events on a failing delivery
 * (`npm run bench:webhooks` compares the two; figures in docs/contributors/benchmarks.md). Store and
 * receiver see the same in both: one delivery id, the same bytes on every call, every attempt logged,
 * none lost or acknowledged twice. The hand-over is the design for the long waits, because retries
 * inside the transaction's workflow break what the schedule's days require:
 * - the transaction's workflow would stay open, holding its activity, for the whole schedule (5 s
 *   to 27.5 h on a dead endpoint): the payment's and the debit's results wait for the merchant's
 *   endpoint, the mandate workflow (which tells the merchant of a debit it cancels) stalls mid-way,
 *   and the non-real-time batch (one merchant's calls, delivered in turn) holds every later call
 *   behind one failing call;
 * - in Temporal UI a failing endpoint's attempts would be only "pending activity, attempt N, last
 *   failure" on the payment; the history keeps no attempt and no timer, no workflow carries the
 *   delivery (nothing to find by Kind webhook, no TxnStatus "webhook delivered/failed"); here each
 *   attempt is a marker and each wait a timer of `webhook:<id>`, searchable by MerchantId;
 * - replays (ops, CLI) must be their own workflows anyway, so the schedule would live in two places.
 * A worker crash costs both designs the same: the attempt in flight is repeated with the same bytes
 * and X-Webhook-Id (after the activity's 30 s start-to-close timeout inline, after the 10 s workflow
 * task timeout here; test/api/webhook-worker-crash.test.ts); the retries design numbers its attempts
 * from the store's log, so a crash would cost it no step of the schedule either.
 * The short waits take the cheaper design: the first-attempt activity retries itself
 * (nextRetryDelay) while the schedule's waits since attempt 1 stay within
 * WEBHOOK_QUICK_RETRIES_WITHIN (default 5 s, at most 30 s: attempt 2 of the default schedule), and
 * hands over after that. A transient failure then costs no second workflow, and the transaction's
 * workflow is held at most that long; every reason above still holds for the long waits. This
 * workflow starts at `fromAttempt`, the attempt after the last one the activity made.
 */
import { type LocalActivityOptions, proxyLocalActivities, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhook-activities';
import { TxnStatusKey } from '../src/temporal/search-attributes';
import { prepareWebhookCall, type WebhookDeliveryInput, type WebhookDeliveryResult } from '../src/temporal/webhook-contract';

const storeOptions: LocalActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
};
// An attempt is tried once: the schedule's durable timers are the retries.
const attemptOptions: LocalActivityOptions = { startToCloseTimeout: '20 seconds', retry: { maximumAttempts: 1 } };

/**
 * Deliveries run their activities as local activities: a delivery answered at once is one workflow
 * task instead of four activity round trips through the server, which is what bounds throughput.
 * A worker that dies mid-attempt loses the workflow task; the next worker repeats the attempt.
 */
const store = proxyLocalActivities<WebhookActivities>(storeOptions);
const attempt = proxyLocalActivities<WebhookActivities>(attemptOptions);

/**
 * One webhook call (workflow id `webhook:<deliveryId>`): the body is built once, then sent on the
 * schedule until the merchant answers SUCCESS; after the last attempt the delivery is failed.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const prepared = await prepareWebhookCall(input, store);
  if (!prepared.send) return { state: `not sent: ${prepared.reason}`, attempts: 0 };
  const { scheduleMs, url, contentType, body } = prepared;
  // Endpoint health: a disabled endpoint ends the delivery (failed, kept for replay), and a 429 or 503
  // with Retry-After is waited for, capped by the schedule's next wait.
  let retryAfterMs = input.retryAfterMs;
  const first = (input.fromAttempt ?? 1) - 1;
  for (let i = first; i < scheduleMs.length; i++) {
    const wait = retryAfterMs !== undefined ? Math.min(retryAfterMs, scheduleMs[i]) : scheduleMs[i];
    // A hand-over started with its first wait as the start delay has waited already.
    const waited = i === first && input.waitedBeforeStart === true;
    if (wait > 0 && !waited) await sleep(wait);
    // The attempt records itself, and the delivery as delivered when it is acknowledged.
    const outcome = await attempt
      .attemptWebhook({
        deliveryId: input.deliveryId,
        merchantIdentifier: input.merchantIdentifier,
        attempt: i + 1,
        url,
        contentType,
        body,
      })
      .catch(() => null);
    if (outcome?.acknowledged) {
      upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook delivered' }]);
      return { state: 'delivered', attempts: i + 1 };
    }
    if (outcome?.superseded) {
      // The order had a later outcome: this stale one is never sent (recorded superseded by the attempt).
      upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook superseded' }]);
      return { state: 'superseded', attempts: i };
    }
    if (outcome?.endpointDisabled) {
      upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook failed' }]);
      return { state: 'failed', attempts: i + 1 };
    }
    retryAfterMs = outcome?.retryAfterMs;
  }
  await store.finishWebhook({ deliveryId: input.deliveryId, state: 'failed' });
  upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook failed' }]);
  return { state: 'failed', attempts: scheduleMs.length };
}
