import type { Client } from '@temporalio/client';
import {
  RECONCILIATION_WORKFLOW_TYPE,
  reconciliationWorkflowId,
  type ReconciliationWorkflow,
  type ReconciliationWorkflowInput,
} from './reconciliation-contract';
import { KindKey } from './search-attributes';

/** What Temporal UI shows of a reconciliation beside its input: the file's lines and those it could not parse. */
export interface ReconciliationMemo {
  lines: number;
  unparsable: number;
}

/** The reconciliation workflow as its callers see it (workflows/reconciliation.ts): its id, start options, search attributes and memo. */
export function reconciliationWorkflowClient(temporal: Client) {
  return {
    /** Starts the reconciliation of one stored file (its id is new: a second start of it fails). */
    async start(taskQueue: string, input: ReconciliationWorkflowInput, memo: ReconciliationMemo): Promise<void> {
      await temporal.workflow.start<ReconciliationWorkflow>(RECONCILIATION_WORKFLOW_TYPE, {
        workflowId: reconciliationWorkflowId(input.reconciliationId),
        taskQueue,
        args: [input],
        typedSearchAttributes: [{ key: KindKey, value: 'reconciliation' }],
        memo: { lines: memo.lines, unparsable: memo.unparsable, batches: input.batches },
      });
    },
  };
}
