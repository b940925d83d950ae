import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { KindKey } from './search-attributes';
import type { pendingPaymentsSweepWorkflow } from '../../workflows/pending-payments-sweep';

export const PENDING_SWEEP_SCHEDULE_ID = 'sweep:pending-payments';

/** The sweep's input: orders Pending for over a minute, up to 500 per run. */
export const PENDING_SWEEP_INPUT = { olderThanMs: 60_000, limit: 500 };

/** Creates the worker's schedules if they do not exist yet (every worker replica may call this). */
export async function ensureSchedules(client: Client, taskQueue: string): Promise<void> {
  try {
    await client.schedule.create<typeof pendingPaymentsSweepWorkflow>({
      scheduleId: PENDING_SWEEP_SCHEDULE_ID,
      spec: { intervals: [{ every: '5 minutes' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'pendingPaymentsSweepWorkflow',
        taskQueue,
        args: [PENDING_SWEEP_INPUT],
        typedSearchAttributes: [{ key: KindKey, value: 'sweep' }],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
      memo: { purpose: 'start the payment workflow of any order left Pending without one' },
    });
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
  }
}
