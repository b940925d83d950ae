/*
 * The pending-payments sweep's contract (workflows/pending-payments-sweep.ts), started by the
 * `sweep:pending-payments` schedule (schedules.ts): its type name, input and result.
 */

export const PENDING_PAYMENTS_SWEEP_WORKFLOW_TYPE = 'pendingPaymentsSweepWorkflow';

export interface SweepInput {
  olderThanMs: number;
  /** Page size of each read. */
  limit: number;
  /** Pages each kind may read per run (default DEFAULT_SWEEP_PAGES); the rest waits for the next run. */
  pages?: number;
}

export interface SweepResult {
  checked: number;
  failed?: number;
}

/** The workflow's signature, for a typed schedule by name. */
export type PendingPaymentsSweepWorkflow = (input: SweepInput) => Promise<SweepResult>;
