import { proxyActivities } from '@temporalio/workflow';
import type { ReconciliationActivities } from '../activities/reconciliation-activities';
import type { ReconciliationWorkflowInput } from '../src/temporal/reconciliation-contract';

const { applyReconciliationBatch, finishReconciliation } = proxyActivities<ReconciliationActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One bank reconciliation file (workflow id `reconciliation:<id>`). The rows stay in the store; the
 * history carries only batch numbers and counts, so a 10,000-line file stays a small history.
 */
export async function reconciliationWorkflow(input: ReconciliationWorkflowInput) {
  for (let batch = 0; batch < input.batches; batch++) {
    await applyReconciliationBatch({ reconciliationId: input.reconciliationId, batch });
  }
  return finishReconciliation({ reconciliationId: input.reconciliationId });
}
