import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

export interface StackProcess {
  child: ChildProcess;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves when the stack says `[stack] ready.`; rejects if it exits first. */
  ready: Promise<void>;
  /** SIGINT, as Ctrl-C: resolves with its exit code, or 'hung' after 90 s (then SIGKILL). */
  stop(): Promise<number | null | 'hung'>;
}

/**
 * `npm run stack:production` (or `stack:cluster`'s topology) as a child process in its own data
 * directory, loopback webhooks allowed for the merchant's site; each line it prints goes to `say`.
 * `movableClock`: the probes move the gateway's clock (a mandate's peak window).
 */
export function startStackProcess(o: {
  dataDir: string;
  cluster: boolean;
  movableClock?: boolean;
  env?: NodeJS.ProcessEnv;
  say: (chunk: string) => void;
}): StackProcess {
  const args = ['--import', 'tsx', path.join(root, 'src/main/production-stack.ts'), '--data-dir', o.dataDir];
  // A checkout expires in 3 minutes, so the final check (patient for 7) sees an abandoned one end.
  args.push(
    '--allow-loopback-webhooks',
    '--checkout-expiry-seconds',
    '180',
    ...(o.movableClock ? ['--movable-clock'] : []),
    ...(o.cluster ? ['--cluster'] : []),
  );
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: o.env ?? process.env });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      o.say(chunk.toString());
      output += chunk.toString();
      if (output.includes('[stack] ready.')) resolve();
    });
    void exited.then((code) => reject(new Error(`the stack exited (${code}) before it was ready`)));
  });
  const stop = async () => {
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 90_000))]);
    if (code === 'hung') child.kill('SIGKILL');
    return code;
  };
  return { child, exited, ready, stop };
}
