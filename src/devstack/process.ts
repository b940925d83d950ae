import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** A local server run as a child process, with its output in a log file. */
export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** Stops it: SIGTERM, then SIGKILL after a grace period. Safe to call twice. */
  stop(): Promise<void>;
}

const live = new Set<ManagedProcess>();

// If this process exits without calling stop() (an uncaught error, process.exit), take the
// children along rather than leaving them holding ports.
process.once('exit', () => {
  for (const p of live) p.child.kill('SIGKILL');
});

export function startProcess(
  name: string,
  command: string,
  args: string[],
  logFile: string,
  env: NodeJS.ProcessEnv = process.env,
  /** The user it runs as (started by root): its pid is the server's own, not a wrapper's such as runuser. */
  user?: { uid: number; gid: number },
): ManagedProcess {
  mkdirSync(path.dirname(logFile), { recursive: true });
  // The child writes its log itself: a parent busy in a synchronous call (a setup script) never
  // leaves it blocked on a full pipe.
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', fd, fd], env, ...(user ?? {}) });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const managed: ManagedProcess = {
    name,
    child,
    async stop() {
      live.delete(managed);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  live.add(managed);
  return managed;
}

/** Resolves when host:port accepts connections; rejects if the process dies or time runs out. */
export async function waitForPort(
  p: ManagedProcess,
  host: string,
  port: number,
  timeoutMs: number,
  logFile: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) throw new Error(`${p.name} exited with code ${p.child.exitCode}; see ${logFile}`);
    if (await canConnect(host, port)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${p.name} did not open ${host}:${port} within ${timeoutMs / 1000}s; see ${logFile}`);
}

/** Fails with `hint` when something already listens on host:port (it would be mistaken for our server). */
export async function assertPortFree(host: string, port: number, hint: string): Promise<void> {
  if (await canConnect(host, port)) throw new Error(`port ${port} on ${host} is already in use; ${hint}`);
}

export function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A port the OS says is free right now (tests run their servers on these). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
