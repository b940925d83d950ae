/**
 * Which of the stack's workers is running a mandate debit's bank request right now, from the debit
 * workflow's pending activity (requestMandateDebit): the identity of the worker that started it,
 * `<pid>@<host>` (the TypeScript SDK's default), matched to the pids of stack.json.
 */
import type { Client } from '@temporalio/client';
import { mandateDebitWorkflowId } from '../../src/temporal/workflow-ids';

/** PENDING_ACTIVITY_STATE_STARTED: a worker took the activity and has not finished it. */
const STARTED = 2;

/** The debits (order ids) whose bank request each worker (by name) is running now. */
export async function debitsRunningOn(
  temporal: Client,
  merchantIdentifier: string,
  orderIds: string[],
  workers: Record<string, number | undefined>,
): Promise<Map<string, string[]>> {
  const running = new Map<string, string[]>();
  for (const orderId of orderIds) {
    const handle = temporal.workflow.getHandle(mandateDebitWorkflowId(merchantIdentifier, orderId));
    const described = await handle.describe().catch(() => undefined);
    for (const a of described?.raw.pendingActivities ?? []) {
      if (a.activityType?.name !== 'requestMandateDebit' || Number(a.state) !== STARTED) continue;
      const pid = Number(a.lastWorkerIdentity?.split('@')[0]);
      const worker = Object.entries(workers).find(([, p]) => p === pid)?.[0];
      if (worker) running.set(worker, [...(running.get(worker) ?? []), orderId]);
    }
  }
  return running;
}

/**
 * Polls (every 100 ms, for up to `timeoutMs`) until a worker is running the bank request of one of
 * these debits: the worker running the most of them, and those debits; undefined if none did.
 */
export async function workerAtBank(
  temporal: Client,
  merchantIdentifier: string,
  orderIds: string[],
  workers: () => Record<string, number | undefined>,
  timeoutMs: number,
): Promise<{ worker: string; orderIds: string[] } | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = await debitsRunningOn(temporal, merchantIdentifier, orderIds, workers());
    const [busiest] = [...running.entries()].sort((a, b) => b[1].length - a[1].length);
    if (busiest) return { worker: busiest[0], orderIds: busiest[1] };
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}
