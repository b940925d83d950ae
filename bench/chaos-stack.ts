/**
 * The servers of a chaos run: the store and Temporal (ours on free ports in a temporary folder, or
 * MONGODB_URI / TEMPORAL_ADDRESS when set) and the gateway's API and worker as child processes that
 * can be killed with SIGKILL and started again on the same configuration.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBankSimulatorProcess } from '../src/devstack/bank-simulator';
import { startFerretdb } from '../src/devstack/ferretdb';
import { localBankSecret } from '../src/devstack/local-secrets';
import { projectRoot } from '../src/devstack/paths';
import { canConnect, freePort, type ManagedProcess } from '../src/devstack/process';
import { startTemporalDevServer } from '../src/devstack/temporal-server';

export interface ChaosStack {
  dir: string;
  mongodbUri: string;
  mongodbDb: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** Environment of the API and worker processes. */
  gatewayEnv: Record<string, string>;
  apiUrl: string;
  opsToken: string;
  /** Bank-fault mode: the simulator's address (its /admin API). */
  bankUrl?: string;
  /** Its /admin token. */
  bankAdminToken?: string;
  /** Stops whatever is still running (the gateway first, then our servers); safe to call twice. */
  stop(): Promise<void>;
}

export interface GatewaySettings {
  bankTimeoutSeconds: number;
  sweepIntervalSeconds: number;
  sweepAgeSeconds: number;
  /** Bank-fault mode: the bank simulator as its own process (it outlives the gateway's kills), the http connector. */
  bankSimulator?: boolean;
}

const servers: ManagedProcess[] = [];
const gatewayChildren = new Set<ChildProcess>();

// Whatever way this process ends, no gateway process outlives it (the devstack module does the
// same for FerretDB and Temporal). The children also exit by themselves when their parent goes.
process.once('exit', () => {
  for (const child of gatewayChildren) child.kill('SIGKILL');
});

export async function startChaosStack(settings: GatewaySettings, log: (line: string) => void): Promise<ChaosStack> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-chaos-'));
  const logDir = path.join(dir, 'logs');
  const stack: Partial<ChaosStack> = { dir };
  const stop = async () => {
    for (const child of [...gatewayChildren]) await stopChild(child, 'SIGTERM');
    for (const server of servers.splice(0).reverse()) await server.stop();
  };
  try {
    let mongodbUri = process.env.MONGODB_URI;
    if (!mongodbUri) {
      const store = await startFerretdb({ port: await freePort(), dataDir: path.join(dir, 'ferretdb'), logDir });
      servers.push(store.process);
      mongodbUri = store.uri;
      log(`store: FerretDB at ${store.uri}`);
    } else log(`store: ${mongodbUri} (MONGODB_URI)`);

    let temporalAddress = process.env.TEMPORAL_ADDRESS;
    if (!temporalAddress) {
      const temporal = await startTemporalDevServer({ port: await freePort(), uiPort: await freePort(), logDir });
      servers.push(temporal.process);
      temporalAddress = temporal.address;
      log(`temporal: dev server at ${temporal.address}`);
    } else log(`temporal: ${temporalAddress} (TEMPORAL_ADDRESS)`);

    const apiPort = await freePort();
    const opsToken = randomBytes(24).toString('base64url');
    const mongodbDb = `chaos_${randomBytes(4).toString('hex')}`;
    const temporalNamespace = process.env.TEMPORAL_NAMESPACE || 'default';
    const gatewayEnv = {
      GATEWAY_ENV: 'test',
      API_HOST: '127.0.0.1',
      API_PORT: String(apiPort),
      MONGODB_URI: mongodbUri,
      MONGODB_DB: mongodbDb,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: temporalNamespace,
      TEMPORAL_TASK_QUEUE: `chaos-${randomBytes(4).toString('hex')}`,
      MASTER_KEY: randomBytes(32).toString('hex'),
      OPS_TOKEN: opsToken,
      DATA_DIR: path.join(dir, 'data'),
      BANK_TIMEOUT_SECONDS: String(settings.bankTimeoutSeconds),
      PENDING_SWEEP_INTERVAL_SECONDS: String(settings.sweepIntervalSeconds),
      PENDING_SWEEP_AGE_SECONDS: String(settings.sweepAgeSeconds),
      LOG_LEVEL: 'info',
    };
    let bankUrl: string | undefined;
    let bankAdminToken: string | undefined;
    if (settings.bankSimulator) {
      const dataDir = path.join(dir, 'data');
      const bank = await startBankSimulatorProcess({ port: await freePort(), dataDir, logDir });
      servers.push(bank.process);
      bankUrl = bank.url;
      bankAdminToken = bank.adminToken;
      Object.assign(gatewayEnv, {
        BANK_CONNECTOR: 'http',
        BANK_BASE_URL: bank.url,
        BANK_SECRET: localBankSecret(dataDir),
        PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
      });
      log(`bank: the bank simulator at ${bank.url}, through the http connector`);
    }
    return Object.assign(stack, {
      mongodbUri,
      mongodbDb,
      temporalAddress,
      temporalNamespace,
      gatewayEnv,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      opsToken,
      ...(bankUrl ? { bankUrl, bankAdminToken } : {}),
      stop,
    }) as ChaosStack;
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The API and the worker, each its own `node --import tsx` process, as in production. */
export interface GatewayProcesses {
  api: ChildProcess;
  worker: ChildProcess;
}

/** Starts both processes and resolves once the API accepts connections and the worker polls. */
export async function startGateway(stack: ChaosStack, generation: number): Promise<GatewayProcesses> {
  const [worker, api] = await Promise.all([
    startGatewayProcess(stack, 'worker', `worker-${generation}`),
    startGatewayProcess(stack, 'api', `api-${generation}`),
  ]);
  return { api, worker };
}

/**
 * One API or worker process (logged to logs/<name>.log), resolved once it serves: an API accepts
 * connections on its API_PORT (the stack's, or `apiPort` for a replica), a worker polls.
 */
export async function startGatewayProcess(
  stack: ChaosStack,
  entry: 'api' | 'worker',
  name: string,
  apiPort = Number(stack.gatewayEnv.API_PORT),
): Promise<ChildProcess> {
  const child = spawnGatewayProcess(stack, entry, path.join(stack.dir, 'logs', `${name}.log`), { API_PORT: String(apiPort) });
  await (entry === 'api'
    ? waitFor(child, name, () => canConnect('127.0.0.1', apiPort))
    : waitFor(child, name, async () => outputOf(child).includes('"worker running"')));
  return child;
}

/** kill -9 of both at once: no shutdown hook runs, in-flight requests and activities are cut off. */
export async function killGateway(g: GatewayProcesses): Promise<void> {
  await Promise.all([killProcess(g.api), killProcess(g.worker)]);
}

/** kill -9 of one gateway process. */
export const killProcess = (child: ChildProcess) => stopChild(child, 'SIGKILL');

const outputs = new WeakMap<ChildProcess, string[]>();
const outputOf = (child: ChildProcess) => (outputs.get(child) ?? []).join('');

function spawnGatewayProcess(
  stack: ChaosStack,
  entry: 'api' | 'worker',
  logFile: string,
  env: Record<string, string> = {},
): ChildProcess {
  // node itself, not npm: the pid killed is the gateway's own process.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'main', `${entry}.ts`)], {
    cwd: projectRoot,
    env: { ...process.env, ...stack.gatewayEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  gatewayChildren.add(child);
  child.once('exit', () => gatewayChildren.delete(child));
  const log = createWriteStream(logFile, { flags: 'a' });
  const seen: string[] = [];
  outputs.set(child, seen);
  child.stdout!.on('data', (chunk: Buffer) => {
    if (seen.length < 100) seen.push(chunk.toString());
    log.write(chunk);
  });
  child.stderr!.pipe(log);
  child.once('exit', () => log.end());
  return child;
}

// Three minutes: on a loaded shared machine a worker took over a minute to start.
async function waitFor(child: ChildProcess, name: string, ready: () => Promise<boolean>, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} process exited during start-up`);
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} process not ready within ${timeoutMs / 1000}s`);
}

/** Sends `signal` and waits for the exit (SIGKILL after 10 s if a SIGTERM is ignored). */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Removes the temporary folder (kept when the run failed, for its logs). */
export const removeChaosDir = (stack: Pick<ChaosStack, 'dir'>) => rmSync(stack.dir, { recursive: true, force: true });
