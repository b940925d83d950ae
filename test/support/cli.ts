import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli as runCliInProcess } from '../../src/cli/run';
import { startTestGateway, type TestGateway } from './gateway';
import { gatewayTime, skipTime, startTimeSkippingGateway } from './time-skipping';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
/** tsx compiles on start-up; on a 2-core machine one run takes a few seconds. */
export const SPAWN_TIMEOUT_MS = 90_000;

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the operator CLI in this process, through the same function as its entry point
 * (src/cli/run.ts): the same program, exit status and output, without a child's start-up (tsx
 * compiling the CLI costs seconds a run). `input` is its standard input.
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCliInProcess(args, env, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    // A child's standard input, when the test gives none, is empty (see spawnCli).
    stdin: () => input ?? '',
  });
  return { code, signal: null, stdout, stderr };
}

/** Runs the operator CLI as an operator would (`npm run -s cli -- ...`), minus npm; `input` is its standard input. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', ...args], {
      cwd: PROJECT_ROOT,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not finish in ${SPAWN_TIMEOUT_MS} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, SPAWN_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * The environment of a CLI pointed at `gw` (GATEWAY_URL and its OPS_TOKEN) and nothing else: no
 * store or Temporal settings, and an empty DATA_DIR so the checkout's own .data is not read.
 */
export function cliEnvFor(gw: TestGateway, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { GATEWAY_URL: _u, OPS_TOKEN: _t, MONGODB_URI: _m, TEMPORAL_ADDRESS: _a, DATA_DIR: _d, ...inherited } = process.env;
  return {
    ...inherited,
    GATEWAY_URL: gw.opsBaseUrl,
    OPS_TOKEN: gw.rt.config.secrets.opsToken,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-')),
    ...extra,
  };
}

/** The two ways `npm start` runs a gateway; the CLI must work the same against either. */
export interface GatewayMode {
  name: 'normal' | 'time-skipping';
  start(overrides?: Record<string, string>): Promise<TestGateway>;
  /** The gateway's clock (the test server's in time-skipping mode). */
  now(gw: TestGateway): Promise<Date>;
  /** Lets this much gateway time pass: waits, or skips the test server's time. */
  pass(gw: TestGateway, seconds: number): Promise<void>;
}

export const GATEWAY_MODES: GatewayMode[] = [
  {
    name: 'normal',
    start: (overrides = {}) => startTestGateway(overrides),
    now: async () => new Date(),
    pass: (_gw, seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000)),
  },
  {
    name: 'time-skipping',
    start: (overrides = {}) => startTimeSkippingGateway(overrides),
    now: async (gw) => new Date((await gatewayTime(gw)).json.data.epochMillis),
    pass: async (gw, seconds) => {
      const res = await skipTime(gw, { seconds });
      if (res.status !== 200) throw new Error(`skip refused: ${res.text}`);
    },
  },
];
