import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import { formatRupees } from '../domain/money';
import { REFUND_WORKFLOW_TYPE, type RefundWorkflow, type RefundWorkflowInput } from './refund-contract';
import { KindKey, MerchantIdKey, OrderIdKey } from './search-attributes';
import { refundWorkflowId } from './workflow-ids';

/** The refund workflow as its callers see it (workflows/refund.ts): its id, start options, search attributes and memo. */
export function refundWorkflowClient(temporal: Client) {
  return {
    /**
     * Starts the refund's workflow unless it exists: a running one is reused, a closed one refused.
     * True when this call started it.
     */
    async startUnlessExists(taskQueue: string, input: RefundWorkflowInput): Promise<boolean> {
      try {
        await temporal.workflow.start<RefundWorkflow>(REFUND_WORKFLOW_TYPE, {
          workflowId: refundWorkflowId(input.merchantIdentifier, input.orderId, input.merchantRefId),
          taskQueue,
          args: [input],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: [
            { key: MerchantIdKey, value: input.merchantIdentifier },
            { key: OrderIdKey, value: input.orderId },
            { key: KindKey, value: 'refund' },
          ],
          memo: {
            txnId: input.txnId,
            merchantRefId: input.merchantRefId,
            amount: formatRupees(input.amountPaise),
            reason: input.reason,
          },
        });
        return true;
      } catch (e) {
        if (e instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw e;
      }
    },
  };
}
