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
