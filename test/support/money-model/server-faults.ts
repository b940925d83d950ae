import type { World } from './world';

/**
 * The gateway's own servers failing, as commands: the store unreachable for a while, and the worker
 * dying under its next activities (worker-crash.ts says what of a crash that covers).
 */

export async function storeOutage(w: World, ms: number): Promise<string> {
  await w.stack.storeProxy.outage(ms);
  return `unreachable ${ms} ms`;
}

export function workerCrash(w: World, activities: number): string {
  w.stack.workerCrash.arm(activities);
  return `the next ${activities} activity runs die`;
}
