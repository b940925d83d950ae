/**
 * The wall clock the production stack's API replicas read (libfaketime's offset file: run.ts starts
 * the stack with --movable-clock). The workers, Temporal and everything else keep the real clock.
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import type { StackState } from '../../src/devstack/production/stack';
import { request } from '../support/http';

/**
 * Moves the API replicas' clock so that it reads `to` (or the real time again), and waits until
 * both replicas' HTTP Date headers say so.
 */
export async function moveApiClock(state: StackState, to: Date | 'real'): Promise<void> {
  const clockFile = state.clockFile;
  assert.ok(clockFile, 'the stack runs with a movable clock (npm run test:production-stack passes --movable-clock)');
  const offsetS = to === 'real' ? 0 : Math.round((to.getTime() - Date.now()) / 1000);
  writeFileSync(clockFile, `${offsetS >= 0 ? '+' : ''}${offsetS}\n`);
  const deadline = Date.now() + 30_000;
  for (const port of state.ports.api) {
    for (;;) {
      const res = await request(`http://127.0.0.1:${port}/health`);
      const skew = Date.parse(res.headers.get('date') ?? '') - (Date.now() + offsetS * 1000);
      if (Math.abs(skew) < 5_000) break;
      if (Date.now() > deadline) throw new Error(`api on ${port}: its clock did not move (skew ${skew} ms)`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
