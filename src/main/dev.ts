/**
 * `npm start`: the whole local stack in one command. Installs the local servers if needed, starts
 * FerretDB (unless MONGODB_URI) and the Temporal dev server with UI (unless TEMPORAL_ADDRESS), runs
 * the worker and the API in this process, and prints the demo merchant. Ctrl-C stops everything.
 */
import path from 'node:path';
import { ensureDemoMerchant, demoInstructions } from '../devstack/demo-merchant';
import { startFerretdb } from '../devstack/ferretdb';
import { installLocalServers, SetupError } from '../devstack/install';
import type { ManagedProcess } from '../devstack/process';
import { startTemporalDevServer } from '../devstack/temporal-server';
import { createLogger } from '../logger';
import { activityDeps, openRuntime, type Runtime } from '../runtime';
import { ensureSchedules, pendingSweepSettings } from '../temporal/schedules';
import { createGatewayWorker } from '../temporal/worker';
import { closeServer, serveApi } from './api';
import { configOrExit, storeUri, temporalAddress } from './load-config';
import { onShutdown } from './shutdown';

const say = (line: string) => console.log(`[dev] ${line}`);

async function main(): Promise<void> {
  const config = configOrExit();
  const dataDir = path.resolve(config.DATA_DIR);
  const logDir = path.join(dataDir, 'logs');
  const children: ManagedProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  onShutdown(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((e) => console.error(e));
    for (const child of children.reverse()) await child.stop();
    say('stopped');
  });

  installLocalServers({ temporal: !config.TEMPORAL_ADDRESS, ferretdb: !config.MONGODB_URI, log: (l) => say(l) });

  if (!config.MONGODB_URI) {
    const store = await startFerretdb({ port: config.DEV_MONGODB_PORT, dataDir: path.join(dataDir, 'ferretdb'), logDir });
    children.push(store.process);
    say(`store: FerretDB at ${store.uri} (data in ${path.relative(process.cwd(), dataDir)}/ferretdb)`);
  }
  if (!config.TEMPORAL_ADDRESS) {
    const temporal = await startTemporalDevServer({
      port: config.DEV_TEMPORAL_PORT,
      uiPort: config.DEV_TEMPORAL_UI_PORT,
      dbFile: path.join(dataDir, 'temporal.db'),
      logDir,
    });
    children.push(temporal.process);
    say(`temporal: dev server at ${temporal.address}, Temporal UI at ${temporal.uiUrl}`);
  }

  const logger = createLogger(config.LOG_LEVEL);
  const rt: Runtime = await openRuntime(config, logger, storeUri(config), temporalAddress(config));
  cleanups.push(() => rt.close());

  const { worker, connection } = await createGatewayWorker({
    address: temporalAddress(config),
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    activityDeps: activityDeps(rt),
  });
  await ensureSchedules(rt.temporal, config.TEMPORAL_TASK_QUEUE, pendingSweepSettings(config));
  const running = worker.run();
  cleanups.push(async () => {
    worker.shutdown();
    await running;
    await connection.close();
  });
  say(`worker: polling task queue ${config.TEMPORAL_TASK_QUEUE}`);

  const server = await serveApi(rt);
  cleanups.push(() => closeServer(server));
  say(`api: listening on http://${config.API_HOST}:${config.API_PORT} (logs: ${path.relative(process.cwd(), logDir)})`);

  const demo = await ensureDemoMerchant(rt.merchants, dataDir, rt.now());
  say(demo.created ? 'demo merchant provisioned' : 'demo merchant from an earlier run');
  console.log(`\n${demoInstructions(config.PUBLIC_BASE_URL, demo.credentials, config.OPS_TOKEN, rt.now())}\n`);
  say('ready. Ctrl-C stops every process.');
}

main().catch((e: Error) => {
  // Expected failures (a missing tool, a busy port, a server that would not start) read best as
  // one line; the stack is there for LOG_LEVEL=debug.
  console.error(`${e instanceof SetupError ? '[setup]' : '[dev]'} ${e.message}`);
  if (process.env.LOG_LEVEL === 'debug') console.error(e.stack);
  process.exit(1);
});
