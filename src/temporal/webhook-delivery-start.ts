import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { webhookDeliverySearchAttributes } from './search-attributes';
import {
  WEBHOOK_DELIVERY_WORKFLOW_TYPE,
  webhookDeliveryWorkflowId,
  type WebhookDeliveryInput,
  type WebhookDeliveryWorkflow,
} from './webhook-contract';

/**
 * Starts a delivery workflow (`webhook:<deliveryId>`) unless it exists, running or closed: a
 * repeated start (a retried activity whose first start succeeded, a workflow ensuring its webhook
 * again) is the same delivery, never a second call. A replay carries `replayOf` in its memo too.
 */
export async function startWebhookDeliveryWorkflow(
  deps: { temporal: Client; taskQueue: string },
  input: WebhookDeliveryInput,
): Promise<void> {
  try {
    await deps.temporal.workflow.start<WebhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW_TYPE, {
      workflowId: webhookDeliveryWorkflowId(input.deliveryId),
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: webhookDeliverySearchAttributes(input),
      ...(input.replayOf ? { memo: { replayOf: input.replayOf } } : {}),
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
}
