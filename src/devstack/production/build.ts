import path from 'node:path';
import type { StackSecrets } from './secrets';
import type { StackPorts } from './settings';
import type { Supervised } from './supervisor';

/** What every step of the production stack's start shares: where things go, and what is started so far. */
export interface StackBuild {
  log: (line: string) => void;
  ports: StackPorts;
  dataDir: string;
  logDir: string;
  secrets: StackSecrets;
  stoppers: { name: string; stop: () => Promise<void> }[];
  supervised: Supervised[];
  writeState: () => void;
}

/** Keeps a supervised process: in the state file's `processes` (its pid and restarts), stopped with the stack. */
export function keepSupervised(b: StackBuild, s: Supervised): Supervised {
  b.supervised.push(s);
  b.stoppers.push({ name: s.name, stop: () => s.stop() });
  return s;
}

/**
 * The file that, while it exists, keeps a supervised process down once it dies (DATA/held/<name>):
 * a probe holds a history host down to see its shards move (npm run test:cluster).
 */
export const holdFileOf = (dataDir: string, name: string) => path.join(dataDir, 'held', name.toLowerCase().replace(/\s+/g, '-'));

/** How the stack supervises a process: its state file rewritten on each start, the stack's log, its hold file. */
export const supervision = (b: StackBuild, name: string) => ({
  onStart: () => b.writeState(),
  log: b.log,
  holdFile: holdFileOf(b.dataDir, name),
});
