/**
 * Keeping a process of the production stack down once it dies: while its hold file exists the
 * stack's supervisor does not start it again (src/devstack/production/supervisor.ts), as a host
 * that is lost stays lost until someone brings it back.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { holdFileOf } from '../../src/devstack/production/build';
import type { StackState } from '../../src/devstack/production/stack';

/** Holds `name` down from now on; the function returned lets the supervisor start it again. */
export function holdDown(state: Pick<StackState, 'dataDir'>, name: string): () => void {
  const file = holdFileOf(state.dataDir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `held by the probes from ${new Date().toISOString()}\n`);
  return () => rmSync(file, { force: true });
}

/**
 * Holds `name` down and kills it (`kill` returns the pid killed). If the kill throws, the hold is
 * released before the error goes on: a process left held would stay down for the rest of the run.
 */
export function killHeldDown(
  state: Pick<StackState, 'dataDir'>,
  name: string,
  kill: () => number,
): { pid: number; release: () => void } {
  const release = holdDown(state, name);
  try {
    return { pid: kill(), release };
  } catch (e) {
    release();
    throw e;
  }
}
