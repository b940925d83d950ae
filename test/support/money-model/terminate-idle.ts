import type { WorkflowHandle } from '@temporalio/client';

/** PendingActivityState.STARTED: a worker is running the activity now. */
const STARTED = 2;

/**
 * Terminates a workflow once none of its activities is running (a few seconds at most). Temporal's
 * time-skipping test server keeps time locked for an activity that was running when its workflow
 * was terminated, for good: every later time skip would wait forever (tried on 2 December 2026).
 * A step waiting for its next attempt may hold it too (seen once), so callers wait for retries
 * they caused themselves (schedule.ts) rather than end them.
 */
export async function terminateWhenIdle(handle: WorkflowHandle, reason: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const d = await handle.describe().catch(() => undefined);
    if (!d || d.status.name !== 'RUNNING') return;
    const running = (d.raw.pendingActivities ?? []).some((a) => Number(a.state) === STARTED);
    if (!running || Date.now() > deadline) {
      await handle.terminate(reason).catch(() => undefined);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
