/**
 * Bench-only workflows (bench/webhook-designs/compare.ts): each stands for the tail of a workflow
 * that changed a transaction, then delivers its webhook by one of the two designs of issue 23.
 */
import { proxyActivities } from '@temporalio/workflow';
import { deliverWebhook } from '../../workflows/realtime-webhook';
import type { WebhookDeliveryInput } from '../../src/temporal/webhook-contract';
import type { RetriesDeliveryActivities } from './retries-activity';

/** The product: the first attempt and its quick retries as an activity here, then a hand-over to `webhook:<deliveryId>`. */
export async function productDesignWorkflow(input: WebhookDeliveryInput): Promise<void> {
  await deliverWebhook(input);
}

const { deliverWebhookWithRetries } = proxyActivities<RetriesDeliveryActivities>({
  startToCloseTimeout: '30 seconds',
  // The schedule comes from each failure's nextRetryDelay; this policy only paces retries after a
  // crash or a timeout, and never gives up (the activity itself ends after the last attempt).
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** The alternative: every attempt a retry of one activity of this workflow, which waits for all of them. */
export async function activityRetriesDesignWorkflow(input: WebhookDeliveryInput): Promise<{ state: string; attempts: number }> {
  return deliverWebhookWithRetries(input);
}
