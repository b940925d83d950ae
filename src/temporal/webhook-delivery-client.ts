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
 * `startDelayMs`: the wait before its first attempt, served by the server before the workflow's first
 * task, so a hand-over after a failed first attempt costs one workflow task, not a timer and two
 * tasks. The workflow id exists from the start, so a repeated start is still refused.
 */
export async function startWebhookDeliveryWorkflow(
  deps: { temporal: Client; taskQueue: string },
  input: WebhookDeliveryInput,
  o: { startDelayMs?: number } = {},
): Promise<void> {
  const delayed = o.startDelayMs !== undefined && o.startDelayMs > 0;
  try {
    await deps.temporal.workflow.start<WebhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW_TYPE, {
      workflowId: webhookDeliveryWorkflowId(input.deliveryId),
      taskQueue: deps.taskQueue,
      args: [delayed ? { ...input, waitedBeforeStart: true } : input],
      ...(delayed ? { startDelay: o.startDelayMs } : {}),
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: webhookDeliverySearchAttributes(input),
      ...(input.replayOf ? { memo: { replayOf: input.replayOf } } : {}),
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
}
