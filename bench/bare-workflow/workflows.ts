/**
 * The ceiling of a payment end to end (issue 35): a workflow that runs one activity doing nothing,
 * as the SDK's defaults run it (an activity task through the server, a workflow task before and
 * after). Bench-only: bench/bank-connector.ts runs it on a worker of its own beside the gateway's.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { bareActivities } from './activities';

const { noop } = proxyActivities<typeof bareActivities>({ startToCloseTimeout: '30 seconds' });

export async function bareOneActivityWorkflow(): Promise<void> {
  await noop();
}
