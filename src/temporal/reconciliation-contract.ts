/*
 * The reconciliation workflow's contract (workflows/reconciliation.ts): its type name, id, input,
 * result, and the failure type its batch activity retries with.
 */

export const RECONCILIATION_WORKFLOW_TYPE = 'reconciliationWorkflow';

/** One bank reconciliation file, named by its reconciliationId. */
export const reconciliationWorkflowId = (reconciliationId: string) => `reconciliation:${reconciliationId}`;

export interface ReconciliationWorkflowInput {
  reconciliationId: string;
  batches: number;
}

/** The workflow's signature, for a typed start by name (its result is the activity's summary). */
export type ReconciliationWorkflow = (input: ReconciliationWorkflowInput) => Promise<unknown>;

/** Retryable failure types of the reconciliation's activities (ApplicationFailure types). */
export const ReconciliationFailure = {
  /** Another attempt holds the batch's lease: this one retries until it is free or the batch is done. */
  BATCH_LEASED: 'ReconciliationBatchLeased',
} as const;
