import { spawn } from 'node:child_process';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
/** tsx compiles on start-up; on a 2-core machine one run takes a few seconds. */
export const SPAWN_TIMEOUT_MS = 90_000;

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI as an operator would (`npm run -s cli -- ...`), minus npm. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', ...args], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
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
