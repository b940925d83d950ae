import type { Client } from '@temporalio/client';
import type { LateUpdate } from '../domain/webhook-late';
import { KindKey, MerchantIdKey } from './search-attributes';
import {
  lateUpdateSignal,
  WEBHOOK_BATCH_WORKFLOW_TYPE,
  webhookBatchWorkflowId,
  type WebhookBatchInput,
  type WebhookBatchWorkflow,
} from './webhook-batch-contract';

/** The merchant's webhook batch workflow as its callers see it (workflows/webhook-batch.ts): its id, start options and signal. */
export function webhookBatchWorkflowClient(temporal: Client) {
  return {
    /** Brings the merchant's batch a late update, starting the batch with `input` when none runs. */
    async addLateUpdate(taskQueue: string, input: WebhookBatchInput, update: LateUpdate): Promise<void> {
      await temporal.workflow.signalWithStart<WebhookBatchWorkflow, [LateUpdate]>(WEBHOOK_BATCH_WORKFLOW_TYPE, {
        workflowId: webhookBatchWorkflowId(input.merchantIdentifier),
        taskQueue,
        args: [input],
        signal: lateUpdateSignal,
        signalArgs: [update],
        typedSearchAttributes: [
          { key: MerchantIdKey, value: input.merchantIdentifier },
          { key: KindKey, value: 'webhook-batch' },
        ],
      });
    },
  };
}
