import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { WebhookDeliveryInput, webhookDeliveryWorkflow } from '../../workflows/webhook';
import { webhookDeliverySearchAttributes } from './search-attributes';

/**
 * Starts a delivery workflow (`webhook:<deliveryId>`) unless it exists: a repeated start is the
 * same delivery, never a second one. A replay carries `replayOf` in its memo too.
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
      typedSearchAttributes: webhookDeliverySearchAttributes(input),
      ...(input.replayOf ? { memo: { replayOf: input.replayOf } } : {}),
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
}
