import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ActivityDeps } from '../../activities';
import type { Listener } from '../../src/api/audience';
import { createApp, refusalsOfPath } from '../../src/api/app';
import { createServer } from '../../src/api/server';
import { loadConfig, type ConfigInput } from '../../src/config';
import { createLogger } from '../../src/logger';
import { apiDeps } from '../../src/main/api-deps';
import { activityDeps, openRuntime, type Runtime } from '../../src/main/runtime';
import { createGatewayWorker } from '../../src/main/gateway-worker';
import { temporalTls } from '../../src/temporal/tls';
import { provisionMerchant, type MerchantCredentials } from '../../src/usecases/provision-merchant';
import type { BankSimulator } from '../../src/bank/simulator/server';
import { freePort } from '../../src/devstack/process';
import { loadedSupport } from './loaded-support';
import { testBankMode, testBankSimulator, testStore, testTemporal, workflowBundle } from './servers';

loadedSupport.gateway = true;

/**
 * One key for the whole run, as one deployment has: every gateway and workflow test shares a store
 * and a Temporal namespace, so a sweep or a schedule of one reads what another sealed (codec.test.ts
 * and the store's secrets tests use keys of their own, in databases of their own, on purpose).
 */
export const RUN_MASTER_KEY = randomBytes(32).toString('hex');

/** The real gateway for API tests: Koa over loopback HTTP, the store, Temporal and a worker. */
export interface TestGateway {
  baseUrl: string;
  /** The operator listener (/ops/v1, /metrics): its own with OPS_PORT, else baseUrl. */
  opsBaseUrl: string;
  rt: Runtime;
  /** The bank simulator this gateway pays through (BANK_CONNECTOR=http), if any. */
  bank?: BankSimulator;
  /** A fresh merchant per test, so no test depends on another's data. */
  newMerchant(name?: string): Promise<MerchantCredentials>;
  stop(): Promise<void>;
}

const running: TestGateway[] = [];

export async function startTestGateway(
  overrides: Partial<Record<keyof ConfigInput, string>> = {},
  options: {
    now?: () => Date;
    temporalAddress?: string;
    /** Changes what the worker's activities are built from (a test that injects a fault). */
    activityDeps?: (deps: ActivityDeps) => ActivityDeps;
    /** The bank: the in-process sandbox, or the bank simulator through the http connector (default: GATEWAY_TEST_BANK). */
    bank?: 'sandbox' | 'simulator';
    /** Wraps every activity run (the money model's worker crash). */
    activityInterceptors?: ActivityInterceptorsFactory[];
  } = {},
): Promise<TestGateway> {
  const [store, temporal, bundle] = await Promise.all([
    testStore(),
    options.temporalAddress ? { address: options.temporalAddress } : testTemporal(),
    workflowBundle(),
  ]);
  // Against the simulator the bank calls back, so the gateway's address is known before it listens.
  const useSimulator = overrides.BANK_CONNECTOR === undefined && (options.bank ?? testBankMode()) === 'simulator';
  const bank = useSimulator ? await testBankSimulator() : undefined;
  const port = bank ? await freePort() : 0;
  const bankSettings = bank
    ? {
        BANK_CONNECTOR: 'http',
        BANK_BASE_URL: bank.url,
        BANK_SECRET: bank.secret,
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      }
    : {};
  const config = loadConfig({
    GATEWAY_ENV: 'test',
    MONGODB_URI: store.uri,
    MONGODB_DB: store.dbName,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `test-${randomBytes(4).toString('hex')}`,
    MASTER_KEY: RUN_MASTER_KEY,
    OPS_TOKEN: randomBytes(24).toString('base64url'),
    BANK_TIMEOUT_SECONDS: '2',
    SANDBOX_REFUND_SECONDS: '0.2',
    LOG_LEVEL: 'silent',
    // The suites share one loopback address and fail authentications on purpose: the abuse limits
    // are tested on their own gateway (test/api/abuse-limits.test.ts).
    AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: '0',
    AUTH_FAILURES_PER_MERCHANT_PER_MINUTE: '0',
    PAGE_REQUESTS_PER_TOKEN_PER_MINUTE: '0',
    PAGE_REQUESTS_PER_ADDRESS_PER_MINUTE: '0',
    DASHBOARD_SIGN_IN_FAILURES_PER_ADDRESS: '0',
    // Every suite signs users in; production's 2^17 (about half a second of a core each) is tested
    // in test/api/dashboard-sign-in.test.ts and test/unit/password.test.ts.
    DASHBOARD_PASSWORD_COST: '14',
    // The dashboard links orders to their workflows there (nothing is served at this address).
    TEMPORAL_UI_URL: 'http://temporal-ui.test:8233',
    ...bankSettings,
    ...overrides,
  });
  const rt = await openRuntime(config, createLogger(config.observability.logLevel), config.store.mongodbUri!, temporal.address);
  // The one injectable clock: API and activities alike read it (mandate tests choose the time of day).
  if (options.now) rt.now = options.now;
  const { worker, connection } = await createGatewayWorker({
    address: temporal.address,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activityDeps: options.activityDeps ? options.activityDeps(activityDeps(rt)) : activityDeps(rt),
    workflowBundle: bundle,
    masterKey: config.secrets.masterKey,
    previousMasterKeys: config.payloadCodec.previousMasterKeys,
    ...(config.payloadCodec.plaintextUntil ? { plaintextUntil: config.payloadCodec.plaintextUntil } : {}),
    tls: temporalTls(config.temporal),
    testServerClock: rt.timeTravel?.clock,
    ...(options.activityInterceptors ? { activityInterceptors: options.activityInterceptors } : {}),
  });
  const workerRun = worker.run();
  // With OPS_PORT the operator API has its own listener, as in production; without it, one serves both.
  const split = config.http.opsPort !== undefined;
  const listen = async (listener: Listener, p: number) => {
    const s = createServer(createApp(apiDeps(rt), listener), {
      requestTimeoutMs: config.http.requestTimeoutSeconds * 1000,
      refusalsOfPath,
    });
    s.listen(p, '127.0.0.1');
    await new Promise((resolve) => s.once('listening', resolve));
    return s;
  };
  const server = await listen(split ? 'public' : 'both', port);
  const opsServer = split ? await listen('ops', config.http.opsPort!) : undefined;
  const urlOf = (s: typeof server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

  const gateway: TestGateway = {
    baseUrl: urlOf(server),
    opsBaseUrl: urlOf(opsServer ?? server),
    rt,
    ...(bank ? { bank } : {}),
    newMerchant: (name = 'Test Merchant') => provisionMerchant(rt.merchants, { name }, rt.now()),
    async stop() {
      running.splice(running.indexOf(gateway), 1);
      await new Promise((resolve) => server.close(resolve));
      if (opsServer) await new Promise((resolve) => opsServer.close(resolve));
      worker.shutdown();
      await workerRun;
      await connection.close();
      await rt.close();
    },
  };
  running.push(gateway);
  return gateway;
}

let shared: Promise<TestGateway> | undefined;

/** One gateway with default test configuration, shared by the API tests. */
export const sharedGateway = () => (shared ??= startTestGateway());

/** Stops every gateway still running; `keepShared` leaves the shared one for the next file of a parallel worker. */
export async function stopGateways(o: { keepShared?: boolean } = {}): Promise<void> {
  const keep = o.keepShared && shared ? await shared.catch(() => undefined) : undefined;
  for (const g of [...running]) if (g !== keep) await g.stop();
  if (!keep) shared = undefined;
}

/** The shared gateway and a fresh merchant of the test's own. */
export async function gatewayWithNewMerchant(name?: string): Promise<{ gw: TestGateway; merchant: MerchantCredentials }> {
  const gw = await sharedGateway();
  return { gw, merchant: await gw.newMerchant(name) };
}
