/**
 * Keeping a process of the production stack down once it dies: while DATA/held/<name> exists the
 * stack's supervisor does not start it again (src/devstack/production/supervisor.ts), as a host
 * that is lost stays lost until someone brings it back.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StackState } from '../../src/devstack/production/stack';

/** Holds `name` down from now on; the function returned lets the supervisor start it again. */
export function holdDown(state: StackState, name: string): () => void {
  const file = path.join(state.heldDir, name.toLowerCase().replace(/\s+/g, '-'));
  mkdirSync(state.heldDir, { recursive: true });
  writeFileSync(file, `held by the probes from ${new Date().toISOString()}\n`);
  return () => rmSync(file, { force: true });
}
