import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT, SPAWN_TIMEOUT_MS } from './cli';
import type { TestGateway } from './gateway';

/** `src/main/worker.ts` as its own process on `taskQueue` (with `env` added), resolved once it polls. */
export function startWorkerProcess(gw: TestGateway, taskQueue: string, env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  return startEntryPoint('src/main/worker.ts', 'worker running', { ...gatewayProcessEnv(gw, taskQueue), ...env });
}

/** What a gateway process needs to share the test gateway's store, Temporal server and keys, on `taskQueue`. */
export function gatewayProcessEnv(gw: TestGateway, taskQueue: string): NodeJS.ProcessEnv {
  const c = gw.rt.config;
  return {
    GATEWAY_ENV: 'test',
    MONGODB_URI: c.store.mongodbUri,
    MONGODB_DB: c.store.database,
    TEMPORAL_ADDRESS: c.temporal.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    MASTER_KEY: c.secrets.masterKey,
    OPS_TOKEN: c.secrets.opsToken,
    LOG_LEVEL: 'info',
  };
}

/** An entry point of src/main as its own process (this environment, `env` over it), resolved once it logs `ready`. */
export function startEntryPoint(entry: string, ready: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${output}`)), SPAWN_TIMEOUT_MS);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
}
