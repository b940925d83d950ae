import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { MANDATE_DEBIT_WORKFLOW_TYPE, type MandateDebitInput, type MandateDebitWorkflow } from './mandate-debit-contract';
import type { MandateOrder } from './mandate-client';
import { confirmDebitUpdate, mandateDebitSearchAttributes } from './mandate-messages';
import { mandateDebitWorkflowId } from './workflow-ids';

/**
 * A mandate debit's own workflow as its callers see it (workflows/mandate-debit.ts): its id, start
 * options and search attributes, the merchant's confirmation and the mandate's cancellation.
 */
export function mandateDebitWorkflowClient(temporal: Client) {
  const handle = (d: MandateOrder) => temporal.workflow.getHandle(mandateDebitWorkflowId(d.merchantIdentifier, d.orderId));
  return {
    /** Starts the debit's workflow unless one of its id exists; true when this call started it. */
    async startUnlessExists(taskQueue: string, input: MandateDebitInput): Promise<boolean> {
      try {
        await temporal.workflow.start<MandateDebitWorkflow>(MANDATE_DEBIT_WORKFLOW_TYPE, {
          workflowId: mandateDebitWorkflowId(input.merchantIdentifier, input.orderId),
          taskQueue,
          args: [input],
          typedSearchAttributes: mandateDebitSearchAttributes(input),
        });
        return true;
      } catch (e) {
        if (e instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw e;
      }
    },

    /** The merchant confirms a debit that waits for it (confirmDebitUpdate). */
    async confirm(debit: MandateOrder): Promise<void> {
      await handle(debit).executeUpdate(confirmDebitUpdate);
    },

    /** Asks the debit to stop; one that is not running (closed, or never started) has nothing to cancel. */
    async cancelIfRunning(debit: MandateOrder): Promise<void> {
      await handle(debit)
        .cancel()
        .catch((e: unknown) => {
          if (!(e instanceof WorkflowNotFoundError)) throw e;
        });
    },
  };
}
