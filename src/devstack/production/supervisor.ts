import type { ManagedProcess } from '../process';

/**
 * compose's `restart: unless-stopped` for one process of the production stack: started again a
 * second after it dies, until stop(). `onStart` hears each new process (the stack's state file
 * records its pid).
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
  o: { onStart: () => void; log: (line: string) => void },
): Promise<Supervised> {
  let stopping = false;
  let restarts = 0;
  let proc = await start();
  const restart = () => {
    if (stopping) return;
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
      o.log(`${name} exited (${signal ?? `code ${code}`}); starting it again`);
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
