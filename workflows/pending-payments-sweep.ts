import { proxyActivities } from '@temporalio/workflow';
import type { SweepActivities, SweepInput } from '../activities/sweep-activities';

const { ensureWorkflowsOfStalePayments } = proxyActivities<SweepActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

/**
 * Run by the `sweep:pending-payments` schedule: makes sure every order left Pending for a while has
 * its payment workflow (and every PENDING refund and CREATED mandate theirs), so an API crash
 * between the store write and the workflow start loses nothing.
 */
export async function pendingPaymentsSweepWorkflow(input: SweepInput): Promise<{ checked: number; failed?: number }> {
  return ensureWorkflowsOfStalePayments(input);
}
