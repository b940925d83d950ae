import { ParentClosePolicy, patched, proxyActivities, startChild } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhook-activities';
import { webhookDeliverySearchAttributes } from '../src/temporal/search-attributes';
import type { WebhookDeliveryInput } from './webhook';

const { startWebhookDelivery } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * The real-time webhook of an order's outcome, as its own workflow that outlives the caller. Its id
 * is the order's, so a replayed or repeated call finds it started and adds nothing.
 */
export async function startRealtimeWebhook(order: { merchantIdentifier: string; orderId: string }): Promise<void> {
  const deliveryId = `rt:${order.merchantIdentifier}:${order.orderId}`;
  await startDeliveryWorkflow({ deliveryId, merchantIdentifier: order.merchantIdentifier, orderId: order.orderId });
}

/** Starts a delivery workflow through an activity (see startWebhookDelivery for why not a child). */
export async function startDeliveryWorkflow(input: WebhookDeliveryInput): Promise<void> {
  if (patched('webhook-delivery-started-by-activity')) {
    await startWebhookDelivery(input);
    return;
  }
  // Histories recorded before the patch started the delivery as an abandoned child; they replay so.
  await startChild('webhookDeliveryWorkflow', {
    workflowId: `webhook:${input.deliveryId}`,
    args: [input],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    typedSearchAttributes: webhookDeliverySearchAttributes(input),
  }).catch((e: unknown) => {
    // Already started by an earlier run of this code path: the delivery exists, nothing to add.
    if ((e as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw e;
  });
}
