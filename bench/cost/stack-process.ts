import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run stack:production` as a child process, started as test/production-stack/run.ts starts
 * it (its own data directory, loopback webhooks allowed for the merchant's site), on ports of its
 * own: a stack or its test already running here keeps the default ones. `cluster`: `npm run
 * stack:cluster`'s topology (the Temporal server as five processes, 16 history shards).
 */

const root = path.resolve(__dirname, '../..');

/** Each PROD_STACK_* port the bench's stack listens on (src/devstack/production/settings.ts), unless the caller set it. */
const BENCH_PORTS: Record<string, number> = {
  PROD_STACK_HTTPS_PORT: 18443,
  PROD_STACK_HTTP_PORT: 18080,
  PROD_STACK_API1_PORT: 23001,
  PROD_STACK_API2_PORT: 23002,
  PROD_STACK_OPS1_PORT: 23101,
  PROD_STACK_OPS2_PORT: 23102,
  PROD_STACK_BANK_SIMULATOR_PORT: 24100,
  PROD_STACK_ACQUIRER_PORT: 24443,
  PROD_STACK_MERCHANT_SITE_PORT: 24444,
  PROD_STACK_MERCHANT_RECEIVER_PORT: 24200,
  PROD_STACK_CODEC_PORT: 28234,
  PROD_STACK_POSTGRESQL_PORT: 25432,
  PROD_STACK_STORE_PORT: 27017,
  PROD_STACK_TEMPORAL_BASE_PORT: 27230,
};

export const benchStackEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(BENCH_PORTS).map(([k, v]) => [k, String(v)])),
  ...process.env,
});

export interface StackProcess {
  child: ChildProcess;
  ready: Promise<void>;
  /** SIGINT, as Ctrl-C: resolves with its exit code, or 'hung' after 90 s (then SIGKILL). */
  stop(): Promise<number | null | 'hung'>;
}

export function startStackProcess(dataDir: string, cluster: boolean, say: (line: string) => void): StackProcess {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'src/main/production-stack.ts'),
      '--data-dir',
      dataDir,
      '--allow-loopback-webhooks',
      ...(cluster ? ['--cluster'] : []),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: benchStackEnv() },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      say(chunk.toString().trimEnd());
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
  return { child, ready, stop };
}
