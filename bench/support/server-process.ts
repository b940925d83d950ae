import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';

/** A server of server-child.ts in its own process: its address, its CPU time, and stopping it. */
export interface ServerProcess {
  url: string;
  /** CPU time (user + system) the process has spent so far, in µs. */
  cpuMicros(): Promise<number>;
  /** Samples its CPU (inspector profiler, 200 µs) from now until stopProfile writes the .cpuprofile file. */
  startProfile(): Promise<void>;
  stopProfile(file: string): Promise<void>;
  /** The settings it serves with (the gateway's log level and limits). */
  settings(): Promise<Record<string, string | number>>;
  /** Counts the store commands it sends from now until stopCommands answers them, by name. */
  startCommands(): Promise<void>;
  stopCommands(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Forks server-child.ts and waits until it listens. With `stdoutFile` its standard output (the
 * gateway's log lines) goes to that file, as a production process's goes to its log collector.
 */
export async function startServerProcess(
  kind: 'gateway-api' | 'bare-find',
  args: object,
  o: { stdoutFile?: string } = {},
): Promise<ServerProcess> {
  const out = o.stdoutFile ? openSync(o.stdoutFile, 'a') : 'inherit';
  const child = fork(path.join(__dirname, 'server-child.ts'), [kind, JSON.stringify(args)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', out, 'inherit', 'ipc'],
  });
  if (typeof out === 'number') closeSync(out);
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
    settings: () => ask<{ settings: Record<string, string | number> }>(child, 'settings').then((m) => m.settings),
    startCommands: () => ask(child, { commands: 'start' }).then(() => undefined),
    stopCommands: () => ask<{ commands: Record<string, number> }>(child, { commands: 'stop' }).then((m) => m.commands),
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
