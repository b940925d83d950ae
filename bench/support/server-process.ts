import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** A server of server-child.ts in its own process: its address, its CPU time, and stopping it. */
export interface ServerProcess {
  url: string;
  /** CPU time (user + system) the process has spent so far, in µs. */
  cpuMicros(): Promise<number>;
  /** Samples its CPU (inspector profiler, 200 µs) from now until stopProfile writes the .cpuprofile file. */
  startProfile(): Promise<void>;
  stopProfile(file: string): Promise<void>;
  stop(): Promise<void>;
}

/** Forks server-child.ts and waits until it listens. */
export async function startServerProcess(kind: 'gateway-api' | 'bare-find', args: object): Promise<ServerProcess> {
  const child = fork(path.join(__dirname, 'server-child.ts'), [kind, JSON.stringify(args)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url?: string }) =>
      m.url ? resolve(m.url) : reject(new Error(`unexpected ${JSON.stringify(m)}`)),
    );
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code} before listening`)));
  });
  return {
    url,
    cpuMicros: () => ask<{ cpu: NodeJS.CpuUsage }>(child, 'cpu').then((m) => m.cpu.user + m.cpu.system),
    startProfile: () => ask(child, { profile: 'start' }).then(() => undefined),
    stopProfile: (file) => ask(child, { profile: 'stop', file }).then(() => undefined),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

/** One question at a time: the child answers each message with one. */
function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m: T) => resolve(m));
    child.send(message as string);
  });
}
