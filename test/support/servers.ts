import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { startBankSimulator, type BankSimulator } from '../../src/bank/simulator/server';
import { startFerretdb } from '../../src/devstack/ferretdb';
import { temporalCliPath, temporalTestServerPath } from '../../src/devstack/paths';
import { freePort, startProcess, waitForPort } from '../../src/devstack/process';
import { configuredSearchAttributes } from '../../src/devstack/temporal-server';
import { registerSearchAttributes } from '../../src/temporal/register-search-attributes';
import { installWorkerRuntime, workflowsPath } from '../../src/main/gateway-worker';
import { loadedSupport } from './loaded-support';
import { unpatchedFerretdbBinary } from './unpatched-ferretdb';

loadedSupport.servers = true;

/**
 * Real servers for the tests, started on first use and shared by the whole run: the store
 * (MONGODB_URI, else FerretDB on a free port in a temporary folder), the Temporal dev server
 * (TEMPORAL_ADDRESS, else the CLI from .devstack), and one workflow bundle. hooks.ts stops them.
 */
const stops: (() => Promise<void>)[] = [];
const dirs: string[] = [];

/** A temporary folder for a server's data and log, removed when this process exits. */
function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
// After process.ts's own exit hook has killed the servers still running (it was registered first).
process.once('exit', () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const once = <T>(start: () => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= start());
};

export const testStore = once(async (): Promise<{ uri: string; dbName: string }> => {
  const dbName = `gateway_test_${process.pid}`;
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, dbName };
  const dir = temporaryDir('gateway-store-');
  const store = await startFerretdb({ port: await freePort(), dataDir: path.join(dir, 'data'), logDir: dir });
  stops.push(() => store.process.stop());
  return { uri: store.uri, dbName };
});

/**
 * FerretDB as released (no gateway.patch), for the differential test; undefined when the tests use
 * MONGODB_URI or go is missing.
 */
export const testUnpatchedStore = once(async (): Promise<{ uri: string; dbName: string } | undefined> => {
  if (process.env.MONGODB_URI) return undefined;
  const binary = unpatchedFerretdbBinary((line) => console.error(`      [unpatched store] ${line}`));
  if (!binary) return undefined;
  const dir = temporaryDir('gateway-store-unpatched-');
  const store = await startFerretdb({ port: await freePort(), dataDir: path.join(dir, 'data'), logDir: dir, binary });
  stops.push(() => store.process.stop());
  return { uri: store.uri, dbName: `gateway_test_${process.pid}` };
});

/**
 * The dev server's settings for tests: a workflow's first failed task already sets
 * TemporalReportedProblems (the server waits for several by default), which the check after the run
 * reads (hooks.ts); and a deleted workflow is gone at once (tests that play retention delete them),
 * not after the half minute the server otherwise takes to make sure it was closed first.
 */
const testServerDynamicConfig = [
  'system.numConsecutiveWorkflowTaskProblemsToTriggerSearchAttribute=1',
  'history.transferProcessorEnsureCloseBeforeDelete=false',
  'history.visibilityProcessorEnsureCloseBeforeDelete=false',
];

/** The dev server this run uses, once a test has asked for it (the problems check reads it). */
export let testTemporalStarted: { address: string; since: Date } | undefined;

export const testTemporal = once(async (): Promise<{ address: string }> => {
  const since = new Date();
  const address = process.env.TEMPORAL_ADDRESS ?? (await startTestTemporal()).address;
  testTemporalStarted = { address, since };
  return { address };
});

/**
 * A dev server with the tests' settings plus `extraDynamicConfig` (`key=json` pairs): the run's
 * shared one (testTemporal), or one of a test's own where it needs a server limit of its own.
 */
export async function startTestTemporal(extraDynamicConfig: string[] = []): Promise<{ address: string; stop(): Promise<void> }> {
  installWorkerRuntime();
  // Started as a managed process (not the SDK's ephemeral server), so it dies with this process
  // even when nobody stops it: a parallel worker's servers end with the worker.
  const dir = temporaryDir('gateway-temporal-');
  const port = await freePort();
  const logFile = path.join(dir, 'temporal.log');
  const args = [
    ...['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--headless', '--namespace', 'default'],
    ...['--log-level', 'error'],
    ...configuredSearchAttributes().flatMap((a) => ['--search-attribute', `${a.name}=${a.type}`]),
    ...[...testServerDynamicConfig, ...extraDynamicConfig].flatMap((v) => ['--dynamic-config-value', v]),
  ];
  const server = startProcess('Temporal dev server (tests)', temporalCliPath, args, logFile);
  await waitForPort(server, '127.0.0.1', port, 60_000, logFile);
  const address = `127.0.0.1:${port}`;
  await untilNamespaceAnswers(address);
  stops.push(() => server.stop());
  return { address, stop: () => server.stop() };
}

/** The dev server opens its port before its namespace is ready: asks until it answers. */
async function untilNamespaceAnswers(address: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await connection.workflowService.describeNamespace({ namespace: 'default' });
        return;
      } catch (e) {
        if (attempt >= 100) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await connection.close();
  }
}

/** A time-skipping environment with the custom search attributes registered (one per test file). */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  installWorkerRuntime();
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: temporalTestServerPath } },
  });
  await registerSearchAttributes(env.connection, env.namespace ?? 'default');
  return env;
}

/** A time-skipping environment for the enclosing describe block: started before its tests, torn down after. */
export function timeSkippingPerSuite(): () => TestWorkflowEnvironment {
  let env: TestWorkflowEnvironment | undefined;
  before(async () => {
    env = await timeSkippingEnvironment();
  });
  after(async () => {
    await env?.teardown();
  });
  return () => env!;
}

/**
 * The bank simulator on loopback, shared by the run: the gateways of tests that run against a bank
 * across the network (GATEWAY_TEST_BANK=simulator, or startTestGateway's `bank: 'simulator'`).
 * Tests read money from its books; each test uses its own merchant, so books never mix.
 */
let bankStarted: Promise<BankSimulator & { secret: string }> | undefined;
export const bankSimulatorIfStarted = () => bankStarted;
export const testBankSimulator = () => (bankStarted ??= startTestBankSimulator());
const startTestBankSimulator = async (): Promise<BankSimulator & { secret: string }> => {
  const secret = randomBytes(32).toString('hex');
  const simulator = await startBankSimulator({ secret, payerDelayMs: 100, callbackRetryMs: [0, 200, 500, 1000, 2000] });
  stops.push(async () => {
    bankStarted = undefined;
    await simulator.close();
  });
  return Object.assign(simulator, { secret });
};

/** Whether this run's API suites talk to the bank simulator through the http connector. */
export const testBankMode = (): 'sandbox' | 'simulator' =>
  process.env.GATEWAY_TEST_BANK === 'simulator' ? 'simulator' : 'sandbox';

export const workflowBundle = once((): Promise<WorkflowBundle> => bundleWorkflowCode({ workflowsPath, logger: quietLogger }));

export async function stopTestServers(): Promise<void> {
  for (const stop of stops.splice(0).reverse()) await stop();
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: console.error };
