import { proxyActivities, sleep, upsertSearchAttributes } from '@temporalio/workflow';
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
}

const { prepareRealtimeWebhook, prepareReplayWebhook, prepareLateWebhook, finishWebhook } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
// An attempt is tried once: the schedule's durable timers are the retries.
const { attemptWebhook } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { maximumAttempts: 1 },
});

/**
 * One webhook call (workflow id `webhook:<deliveryId>`): the body is built once, then sent on the
 * schedule until the merchant answers SUCCESS; after the last attempt the delivery is failed.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<{ state: string; attempts: number }> {
  const prepared =
    input.replayOf !== undefined
      ? await prepareReplayWebhook({ deliveryId: input.deliveryId, replayOf: input.replayOf })
      : input.late !== undefined
        ? await prepareLateWebhook({
            deliveryId: input.deliveryId,
            merchantIdentifier: input.merchantIdentifier,
            late: input.late,
          })
        : await prepareRealtimeWebhook(input);
  if (!prepared.send) return { state: `not sent: ${prepared.reason}`, attempts: 0 };
  const { scheduleMs, url, contentType, body } = prepared;
  for (let i = 0; i < scheduleMs.length; i++) {
    if (scheduleMs[i]! > 0) await sleep(scheduleMs[i]!);
    const { acknowledged } = await attemptWebhook({ deliveryId: input.deliveryId, attempt: i + 1, url, contentType, body }).catch(
      () => ({
        acknowledged: false,
      }),
    );
    if (acknowledged) {
      await finishWebhook({ deliveryId: input.deliveryId, state: 'delivered' });
      upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook delivered' }]);
      return { state: 'delivered', attempts: i + 1 };
    }
  }
  await finishWebhook({ deliveryId: input.deliveryId, state: 'failed' });
  upsertSearchAttributes([{ key: TxnStatusKey, value: 'webhook failed' }]);
  return { state: 'failed', attempts: scheduleMs.length };
}
