/**
 * `npm start`: the whole local stack in one command. Installs the local servers if needed, starts
 * FerretDB (unless MONGODB_URI) and the Temporal dev server with UI (unless TEMPORAL_ADDRESS), runs
 * the worker and the API in this process, and prints the demo merchant. Ctrl-C stops everything.
 *
 * `npm start -- --time-skipping` (or TIME_SKIPPING=true): the Temporal time-skipping test server
 * instead of the dev server, a fresh store database for the run, and POST /sandbox/v1/time/skip.
 *
 * `npm start -- --bank=simulator`: the bank simulator as its own process, and the gateway paying
 * through the http connector (BANK_CONNECTOR=http) instead of the in-process sandbox bank.
 *
 * While it runs, DATA_DIR/gateway.json tells the operator CLI (`npm run -s cli`) where it listens.
 */
import path from 'node:path';
import { ensureDemoMerchant, demoInstructions, timeTravelInstructions, writeDemoPublicKey } from '../devstack/demo-merchant';
import { startBankSimulatorProcess } from '../devstack/bank-simulator';
import { startCodecSite } from '../devstack/codec-site';
import { demoDashboardInstructions } from '../devstack/demo-dashboard';
import { startFerretdb } from '../devstack/ferretdb';
import { localBankSecret } from '../devstack/local-secrets';
import { localAddress, removeRunningGateway, writeRunningGateway } from '../devstack/gateway-file';
import { installLocalServers, SetupError } from '../devstack/install';
import type { ManagedProcess } from '../devstack/process';
import { startTemporalDevServer, startTemporalTestServer } from '../devstack/temporal-server';
import { createLogger } from '../logger';
import { DashboardInvitationRepository } from '../store/dashboard-invitation-repository';
import { DashboardUserRepository } from '../store/dashboard-user-repository';
import { activityDeps, openRuntime, type Runtime } from './runtime';
import { dropDatabase } from '../store/mongo';
import { ensureWorkerSchedules } from '../temporal/schedules';
import { createGatewayWorker } from './gateway-worker';
import { temporalTls } from '../temporal/tls';
import { closeServers, serveApi } from './api';
import { configOrExit, storeUri, temporalAddress } from './load-config';
import { printsStacks } from '../config-tools';
import { onShutdown } from './shutdown';

const say = (line: string) => console.log(`[dev] ${line}`);

async function main(): Promise<void> {
  const timeSkippingFlag = process.argv.includes('--time-skipping');
  const env = timeSkippingFlag ? { ...process.env, TIME_SKIPPING: 'true' } : process.env;
  const bank = bankFlag(process.argv);
  let config = devConfig(env, bank);
  const dataDir = path.resolve(config.devStack.dataDir);
  const logDir = path.join(dataDir, 'logs');
  const children: ManagedProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  onShutdown(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((e) => console.error(e));
    for (const child of children.reverse()) await child.stop();
    say('stopped');
  });

  installLocalServers({ temporal: !config.temporal.address, ferretdb: !config.store.mongodbUri, log: (l) => say(l) });

  const stack: DevStack = { dataDir, logDir, children, cleanups };
  config = await startLocalServices(config, stack);
  await startBankChoice(config, bank, stack);

  if (config.temporal.timeSkipping) {
    await dropDatabase(storeUri(config), config.store.database);
    say(`store: database ${config.store.database}, fresh for this time-skipping run`);
  }

  const logger = createLogger(config.observability.logLevel);
  const rt: Runtime = await openRuntime(config, logger, storeUri(config), temporalAddress(config));
  cleanups.push(() => rt.close());

  await startDevWorker(rt, config, cleanups);

  const listeners = await serveApi(rt);
  cleanups.push(async () => void (await closeServers(listeners)));
  // The operator CLI finds this gateway, its mode and its token here (DATA_DIR/gateway.json).
  writeRunningGateway(dataDir, {
    baseUrl: localAddress(config.http.host, config.http.port),
    opsBaseUrl: localAddress(listeners.opsHost, listeners.opsPort),
    opsToken: config.secrets.opsToken,
    timeSkipping: config.temporal.timeSkipping,
    pid: process.pid,
  });
  cleanups.push(async () => removeRunningGateway(dataDir));
  say(
    `api: listening on http://${config.http.host}:${config.http.port}${config.http.opsPort !== undefined ? `, the operator API on http://${listeners.opsHost}:${listeners.opsPort}` : ''} (logs: ${path.relative(process.cwd(), logDir)})`,
  );

  await printDemo(rt, config, dataDir);
  say('ready. Ctrl-C stops every process.');
}

type DevConfig = ReturnType<typeof configOrExit>;

/** What the processes started so far need at shutdown, and where they keep data and logs. */
interface DevStack {
  dataDir: string;
  logDir: string;
  children: ManagedProcess[];
  cleanups: (() => Promise<void>)[];
}

/** The configuration, pointed at the local bank simulator with --bank=simulator. */
function devConfig(env: NodeJS.ProcessEnv, bank: 'sandbox' | 'simulator' | undefined): DevConfig {
  const config = configOrExit(env);
  if (bank === 'simulator') {
    if (config.env === 'production')
      throw new Error('--bank=simulator is for development: the simulator never runs in production');
    // The http connector against the local simulator, which shares DATA_DIR/bank.secret with the gateway.
    return configOrExit({
      ...env,
      BANK_CONNECTOR: 'http',
      BANK_BASE_URL: `http://127.0.0.1:${config.devStack.bankSimulatorPort}`,
      BANK_SECRET: localBankSecret(path.resolve(config.devStack.dataDir)),
    });
  }
  return config;
}

/** The store and Temporal when not configured elsewhere; the configuration as Temporal UI needs it. */
async function startLocalServices(config: DevConfig, { dataDir, logDir, children, cleanups }: DevStack): Promise<DevConfig> {
  if (!config.store.mongodbUri) {
    const store = await startFerretdb({ port: config.devStack.mongodbPort, dataDir: path.join(dataDir, 'ferretdb'), logDir });
    children.push(store.process);
    say(`store: FerretDB at ${store.uri} (data in ${path.relative(process.cwd(), dataDir)}/ferretdb)`);
  }
  if (!config.temporal.address && config.temporal.timeSkipping) {
    const temporal = await startTemporalTestServer({ port: config.devStack.temporalPort, logDir });
    children.push(temporal.process);
    say(`temporal: time-skipping test server at ${temporal.address} (in memory, no Temporal UI)`);
  } else if (!config.temporal.address) {
    // Temporal UI shows the payload codec's payloads decoded through a loopback site adding the
    // operator token; the API lets the UI's origins call it cross-origin.
    const uiOrigins = [
      `http://localhost:${config.devStack.temporalUiPort}`,
      `http://127.0.0.1:${config.devStack.temporalUiPort}`,
    ];
    const corsOrigins = [...new Set([...config.payloadCodec.corsOrigins, ...uiOrigins])];
    config = Object.freeze({ ...config, payloadCodec: Object.freeze({ ...config.payloadCodec, corsOrigins }) });
    const codecSite = await startCodecSite({
      port: config.devStack.temporalUiCodecPort,
      apiBaseUrl:
        config.http.opsPort !== undefined
          ? `http://${loopbackOf(config.http.opsHost)}:${config.http.opsPort}`
          : `http://${loopbackOf(config.http.host)}:${config.http.port}`,
      opsToken: config.secrets.opsToken,
    });
    cleanups.push(() => codecSite.close());
    const temporal = await startTemporalDevServer({
      port: config.devStack.temporalPort,
      uiPort: config.devStack.temporalUiPort,
      uiCodecEndpoint: codecSite.url,
      dbFile: path.join(dataDir, 'temporal.db'),
      logDir,
    });
    children.push(temporal.process);
    say(`temporal: dev server at ${temporal.address}, Temporal UI at ${temporal.uiUrl} (decoding through ${codecSite.url})`);
  }
  return config;
}

/** The bank simulator with --bank=simulator; otherwise which bank the gateway pays through. */
async function startBankChoice(config: DevConfig, bank: 'sandbox' | 'simulator' | undefined, { logDir, children }: DevStack) {
  if (bank === 'simulator') {
    const simulator = await startBankSimulatorProcess({
      port: config.devStack.bankSimulatorPort,
      dataDir: path.resolve(config.devStack.dataDir),
      logDir,
    });
    children.push(simulator.process);
    say(
      `bank: the bank simulator at ${simulator.url} through the http connector (books: ${simulator.url}/admin/books with the token in ${path.join(path.resolve(config.devStack.dataDir), 'bank-simulator-admin.token')}, protocol: ${simulator.url}/openapi.json)`,
    );
  } else {
    say(
      `bank: ${config.bank.connector === 'http' ? `an acquirer over http at ${config.bank.baseUrl}` : 'the in-process sandbox'}`,
    );
  }
}

/** The gateway's worker, in this process, and its schedules. */
async function startDevWorker(rt: Runtime, config: DevConfig, cleanups: DevStack['cleanups']): Promise<void> {
  const { worker, connection } = await createGatewayWorker({
    address: temporalAddress(config),
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activityDeps: activityDeps(rt),
    masterKey: config.secrets.masterKey,
    previousMasterKeys: config.payloadCodec.previousMasterKeys,
    ...(config.payloadCodec.plaintextUntil ? { plaintextUntil: config.payloadCodec.plaintextUntil } : {}),
    tls: temporalTls(config.temporal),
    testServerClock: rt.timeTravel?.clock,
  });
  await ensureWorkerSchedules(rt, say);
  const running = worker.run();
  cleanups.push(async () => {
    worker.shutdown();
    await running;
    await connection.close();
  });
  say(`worker: polling task queue ${config.temporal.taskQueue}`);
}

/** The demo merchant, and how to use it (and time travel, and the dashboard). */
async function printDemo(rt: Runtime, config: DevConfig, dataDir: string): Promise<void> {
  const demo = await ensureDemoMerchant(rt.merchants, dataDir, rt.now());
  say(demo.created ? 'demo merchant provisioned' : 'demo merchant from an earlier run');
  console.log(
    `\n${demoInstructions(config.http.publicBaseUrl, demo.credentials, config.secrets.opsToken, rt.now(), writeDemoPublicKey(dataDir, demo.credentials))}\n`,
  );
  if (rt.timeTravel) console.log(`${timeTravelInstructions(config.http.publicBaseUrl, rt.now())}\n`);
  const invitationDeps = {
    ...rt,
    dashboardUsers: new DashboardUserRepository(rt.store.db),
    dashboardInvitations: new DashboardInvitationRepository(rt.store.db),
    publicBaseUrl: config.http.publicBaseUrl,
    invitationHours: config.dashboard.invitationHours,
  };
  console.log(`${await demoDashboardInstructions(invitationDeps, demo.credentials.merchantIdentifier)}\n`);
}

/** Where this machine reaches the API: its own address, or loopback when it listens on every interface. */
const loopbackOf = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

/** `--bank=simulator` (or `--bank simulator`): the stack pays through the local bank simulator; `--bank=sandbox` is the default. */
function bankFlag(argv: string[]): 'sandbox' | 'simulator' | undefined {
  const i = argv.findIndex((a) => a === '--bank' || a.startsWith('--bank='));
  if (i < 0) return undefined;
  const value = argv[i].startsWith('--bank=') ? argv[i].slice('--bank='.length) : argv[i + 1];
  if (value === 'simulator' || value === 'sandbox') return value;
  throw new Error(`--bank must be simulator or sandbox, not ${JSON.stringify(value ?? '')}`);
}

main().catch((e: Error) => {
  // Expected failures (a missing tool, a busy port, a server that would not start) read best as
  // one line; the stack is there for LOG_LEVEL=debug.
  console.error(`${e instanceof SetupError ? '[setup]' : '[dev]'} ${e.message}`);
  if (printsStacks(process.env)) console.error(e.stack);
  process.exit(1);
});
