/**
 * The ceiling of a payment end to end: a workflow that runs one local activity doing
 * nothing, as a payment runs its bank request and its outcome's write (local activities, in the
 * workflow task that starts it), so the two sides compare the same kind of step. Bench-only:
 * bench/bank-connector.ts runs it on a worker of its own beside the gateway's.
 */
import { proxyLocalActivities } from '@temporalio/workflow';
import type { bareActivities } from './activities';

const { noop } = proxyLocalActivities<typeof bareActivities>({ startToCloseTimeout: '30 seconds' });

export async function bareOneActivityWorkflow(): Promise<void> {
  await noop();
}
