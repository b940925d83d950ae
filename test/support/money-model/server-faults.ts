import type { World } from './world';

/**
 * The gateway's own servers failing, as commands: the store unreachable for a while, and the worker
 * dying under its next activities (worker-crash.ts says what of a crash that covers).
 */

export async function storeOutage(w: World, ms: number): Promise<string> {
  await w.stack.storeProxy.outage(ms);
  return `unreachable ${ms} ms${await storeAnswersAgain(w)}`;
}

/**
 * After an outage the store is back, but the gateway's client learns that each pooled connection
 * died only when it uses it: the first operations fail (the gateway's activities retry them; an
 * API request answers 503). The model itself reads the store through the same client to check
 * its invariants, so it waits until the client answers three pings in a row: a read of the
 * checker must not meet a connection the outage killed (seed 4242 met one).
 */
async function storeAnswersAgain(w: World): Promise<string> {
  let failed = 0;
  const deadline = Date.now() + 30_000;
  for (let ok = 0; ok < 3;) {
    try {
      await w.stack.gw.rt.store.db.command({ ping: 1 });
      ok++;
    } catch {
      ok = 0;
      failed++;
      if (Date.now() > deadline) throw new Error('the store did not answer again within 30 s of the outage');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return failed ? ` (${failed} ping(s) failed afterwards)` : '';
}

export function workerCrash(w: World, activities: number): string {
  w.stack.workerCrash.arm(activities);
  return `the next ${activities} activity runs die`;
}
