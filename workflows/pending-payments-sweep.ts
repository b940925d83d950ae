import { proxyActivities } from '@temporalio/workflow';
import type { SweepActivities } from '../activities/sweep-activities';
import type { SweepInput, SweepResult } from '../src/temporal/sweep-contract';

const { ensureWorkflowsOfStalePayments } = proxyActivities<SweepActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

/**
 * Run by the `sweep:pending-payments` schedule: makes sure every order left Pending for a while has
 * its payment workflow (and every PENDING refund and CREATED mandate theirs), so an API crash
 * between the store write and the workflow start loses nothing.
 */
export async function pendingPaymentsSweepWorkflow(input: SweepInput): Promise<SweepResult> {
  return ensureWorkflowsOfStalePayments(input);
}
