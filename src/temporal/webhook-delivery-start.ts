import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { WebhookDeliveryInput, webhookDeliveryWorkflow } from '../../workflows/webhook';
import { KindKey, MerchantIdKey, OrderIdKey } from './search-attributes';

/**
 * Starts a delivery workflow (`webhook:<deliveryId>`) unless it exists: a repeated start is the
 * same delivery, never a second one. Kind `webhook`, with the merchant and, when the delivery is
 * about one order, its orderId as search attributes.
 */
export async function startWebhookDeliveryWorkflow(
  deps: { temporal: Client; taskQueue: string },
  input: WebhookDeliveryInput,
): Promise<void> {
  try {
    await deps.temporal.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
      workflowId: `webhook:${input.deliveryId}`,
      taskQueue: deps.taskQueue,
      args: [input],
      typedSearchAttributes: [
        { key: MerchantIdKey, value: input.merchantIdentifier },
        ...(input.orderId ? [{ key: OrderIdKey, value: input.orderId }] : []),
        { key: KindKey, value: 'webhook' },
      ],
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
}
