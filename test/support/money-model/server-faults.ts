import type { World } from './world';

/**
 * The gateway's own servers failing, as commands: the store unreachable for a while. (A worker
 * stopped and started again is not modelled: Temporal's test server holds its time still while a
 * workflow task is outstanding, and the task a stopped worker leaves on its sticky queue stays
 * outstanding, so the next time skip never ends.)
 */

export async function storeOutage(w: World, ms: number): Promise<string> {
  await w.stack.storeProxy.outage(ms);
  return `unreachable ${ms} ms`;
}
