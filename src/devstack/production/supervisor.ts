import { existsSync } from 'node:fs';
import type { ManagedProcess } from '../process';

/**
 * compose's `restart: unless-stopped` for one process of the production stack: started again a
 * second after it dies, until stop(). `onStart` hears each new process (the stack's state file
 * records its pid). While `holdFile` exists, a process that died stays down (a host lost for a
 * while, as `docker compose stop` keeps a container down): it is started again once the file is gone.
 */
export interface Supervised {
  name: string;
  current(): ManagedProcess;
  restarts(): number;
  stop(): Promise<void>;
}

export async function supervise(
  name: string,
  start: () => Promise<ManagedProcess>,
  o: { onStart: () => void; log: (line: string) => void; holdFile?: string },
): Promise<Supervised> {
  let stopping = false;
  let restarts = 0;
  let proc = await start();
  const held = () => o.holdFile !== undefined && existsSync(o.holdFile);
  const restart = () => {
    if (stopping) return;
    if (held()) return void setTimeout(restart, 250);
    start().then(
      (next) => {
        // Stopped while it was starting: the new process goes too, rather than outlive the stack.
        if (stopping) return void next.stop();
        restarts++;
        proc = next;
        watch(next);
        o.onStart();
      },
      (e: Error) => {
        o.log(`${name} did not start again (${e.message}); trying again`);
        setTimeout(restart, 2000);
      },
    );
  };
  const watch = (p: ManagedProcess) => {
    p.child.once('exit', (code, signal) => {
      if (stopping) return;
      const how = signal ?? `code ${code}`;
      o.log(
        held()
          ? `${name} exited (${how}); held down until ${o.holdFile} is removed`
          : `${name} exited (${how}); starting it again`,
      );
      setTimeout(restart, 1000);
    });
  };
  watch(proc);
  o.onStart();
  return {
    name,
    current: () => proc,
    restarts: () => restarts,
    async stop() {
      stopping = true;
      await proc.stop();
    },
  };
}
