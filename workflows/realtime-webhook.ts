import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhook-activities';
import { realtimeDeliveryId, type WebhookDeliveryInput } from '../src/temporal/webhook-contract';

/**
 * The first attempt: one HTTP call (at most 15 s, WEBHOOK_ATTEMPT_TIMEOUT_SECONDS) plus two store
 * writes and, when it fails, either a quick retry (this activity retried after the schedule's wait,
 * set by its failure's nextRetryDelay) or a workflow start. Retried until it completes, so a worker
 * dying during it, or Temporal or the store being away, never loses the delivery; a retry never
 * re-sends what the store shows settled (deliverWebhookFirstAttempt).
 */
const firstAttemptOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
} as const;
const { deliverWebhookFirstAttempt } = proxyActivities<WebhookActivities>(firstAttemptOptions);
/**
 * The same first attempt as a local activity, in the caller's workflow task (the payment workflow):
 * no activity task through the server. A crash before the task completes re-runs
 * it, as a lost activity completion re-runs the activity above: the same delivery id and bytes,
 * never re-sent once the store shows it settled.
 */
const { deliverWebhookFirstAttempt: localFirstAttempt } = proxyLocalActivities<WebhookActivities>(firstAttemptOptions);

/** How the caller's workflow delivers: `local`, the first attempt as a local activity (payments). */
export interface DeliverHow {
  local?: boolean;
}

/**
 * Whether the outcome just recorded is sent as a real-time webhook: whenever the stored outcome of
 * the order's transaction is final, not only when this call applied it. The store write may have
 * committed on an attempt whose completion was lost (a worker crash, a timeout); the retry then
 * finds it applied already, and the merchant must still hear of it. Ensuring the delivery twice is
 * harmless: its id is the order's. Never for an outcome the activity reported to the non-real-time webhook (`realtime: false`).
 */
export function realtimeWebhookDue(recorded: { status: string; applied: boolean; realtime?: false }): boolean {
  if (recorded.realtime === false) return false;
  return recorded.applied || recorded.status !== 'Pending';
}

/**
 * The real-time webhook of an order's outcome, as its own workflow that outlives the caller. Its id
 * is the order's, so a replayed or repeated call finds it started and adds nothing.
 */
export async function startRealtimeWebhook(
  order: { merchantIdentifier: string; orderId: string },
  how: DeliverHow = {},
): Promise<void> {
  const deliveryId = realtimeDeliveryId(order);
  await deliverWebhook({ deliveryId, merchantIdentifier: order.merchantIdentifier, orderId: order.orderId }, how);
}

/**
 * A delivery made durable by the workflow that changed the transaction: its first attempt and quick
 * retries run here, as an activity; only a delivery still failing after them starts the delivery
 * workflow that goes on with the schedule (why not the activity's own retries throughout: the top
 * of ./webhook.ts).
 */
export async function deliverWebhook(input: WebhookDeliveryInput, how: DeliverHow = {}): Promise<void> {
  await (how.local ? localFirstAttempt : deliverWebhookFirstAttempt)(input);
}
