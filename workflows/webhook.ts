import {
  type LocalActivityOptions,
  patched,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhook-activities';
import type { LateUpdate } from '../src/domain/webhook-late';
import { TxnStatusKey } from '../src/temporal/search-attributes';

export interface WebhookDeliveryInput {
  deliveryId: string;
  merchantIdentifier: string;
  orderId: string;
  /** A replay sends the stored bytes of this earlier delivery again. */
  replayOf?: string;
  /** A non-real-time call: the late updates it carries. */
  late?: LateUpdate[];
  /**
   * Handed over by a failed first attempt inside the transaction's workflow: the delivery goes on
   * from this attempt (2), after the schedule's wait before it. Absent: from attempt 1.
   */
  fromAttempt?: number;
  /**
   * Handed over after a first attempt answered 429 or 503 with Retry-After: the wait the receiver
   * asked for, which replaces the schedule's wait before attempt 2 when shorter.
   */
  retryAfterMs?: number;
}

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
const local = {
  store: proxyLocalActivities<WebhookActivities>(storeOptions),
  attempt: proxyLocalActivities<WebhookActivities>(attemptOptions),
};
/** Deliveries started before local activities keep the activity commands their history recorded. */
const remote = {
  store: proxyActivities<WebhookActivities>(storeOptions),
  attempt: proxyActivities<WebhookActivities>(attemptOptions),
};

/**
 * One webhook call (workflow id `webhook:<deliveryId>`): the body is built once, then sent on the
 * schedule until the merchant answers SUCCESS; after the last attempt the delivery is failed.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<{ state: string; attempts: number }> {
  const legacy = !patched('webhook-local-activities');
  const { store, attempt } = legacy ? remote : local;
  const prepared =
    input.replayOf !== undefined
      ? await store.prepareReplayWebhook({ deliveryId: input.deliveryId, replayOf: input.replayOf })
      : input.late !== undefined
        ? await store.prepareLateWebhook({
            deliveryId: input.deliveryId,
            merchantIdentifier: input.merchantIdentifier,
            late: input.late,
          })
        : await store.prepareRealtimeWebhook(input);
  if (!prepared.send) return { state: `not sent: ${prepared.reason}`, attempts: 0 };
  const { scheduleMs, url, contentType, body } = prepared;
  // Endpoint health: a disabled endpoint ends the delivery (failed, kept for replay), and a 429 or 503
  // with Retry-After is waited for, capped by the schedule's next wait. Histories before replay without.
  const health = patched('webhook-endpoint-health');
  let retryAfterMs = health ? input.retryAfterMs : undefined;
  for (let i = (input.fromAttempt ?? 1) - 1; i < scheduleMs.length; i++) {
    const wait = retryAfterMs !== undefined ? Math.min(retryAfterMs, scheduleMs[i]!) : scheduleMs[i]!;
    if (wait > 0) await sleep(wait);
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
      if (legacy) await store.finishWebhook({ deliveryId: input.deliveryId, state: 'delivered' });
      upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook delivered' }]);
      return { state: 'delivered', attempts: i + 1 };
    }
    if (health && outcome?.endpointDisabled) {
      upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook failed' }]);
      return { state: 'failed', attempts: i + 1 };
    }
    retryAfterMs = health ? outcome?.retryAfterMs : undefined;
  }
  await store.finishWebhook({ deliveryId: input.deliveryId, state: 'failed' });
  upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook failed' }]);
  return { state: 'failed', attempts: scheduleMs.length };
}
