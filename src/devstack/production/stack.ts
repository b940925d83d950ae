import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installLocalServers, installTemporalServer } from '../install';
import { findCaddy, findLibfaketime } from './debian-packages';
import { projectRoot } from '../paths';
import { startProcess, waitForPort } from '../process';
import {
  acquirerUrlOf,
  apiEnvironment,
  caddyEnvironment,
  gatewayEnvironment,
  outsideCaddyEnvironment,
  publicUrlOf,
} from './environments';
import { stackSecrets, type StackSecrets } from './secrets';
import {
  caddyfile,
  gatewayEnvFile,
  outsideCaddyfile,
  readEnvFile,
  stackPorts,
  TEMPORAL_SERVER_VERSION,
  type StackPorts,
} from './settings';
import { holdFileOf, keepSupervised, supervision, type StackBuild } from './build';
import { startStackPostgresql, startStackStore } from './store';
import { supervise } from './supervisor';
import { productionStackLogLevel } from '../../config-tools';
import {
  CLUSTER_HISTORY_SHARDS,
  clusterTemporalProcesses,
  singleTemporalProcess,
  issueTemporalCertificates,
  registerNamespaceAndSearchAttributes,
  setupTemporalSchema,
  startTemporalServer,
  temporalServerEnv,
} from './temporal';

/**
 * `npm run stack:production`: docker-compose.yml's topology as processes of this machine, from
 * the same configuration files. Every process but Caddy's public site listens on loopback.
 * It writes DATA/stack.json (addresses, ports and process ids) for `npm run test:production-stack`.
 */

export interface StackState {
  publicUrl: string;
  publicPorts: number[];
  ports: StackPorts;
  caddyRootCertificate: string;
  dataDir: string;
  /**
   * With movableClock: the file the API replicas' clock reads its offset from (libfaketime's
   * FAKETIME_TIMESTAMP_FILE, "+<seconds>", read again at most once a second).
   */
  clockFile?: string;
  /** `npm run stack:cluster`: the Temporal server as separate processes. */
  cluster: boolean;
  /**
   * Where a file named after a supervised process (lower case, spaces as dashes: `held/temporal-history-1`)
   * keeps that process down once it dies, until the file is removed.
   */
  heldDir: string;
  processes: Record<string, { pid: number | undefined; restarts: number }>;
}

export interface ProductionStack {
  state(): StackState;
  secrets: StackSecrets;
  stop(): Promise<void>;
}

type Log = (line: string) => void;

export async function startProductionStack(o: {
  dataDir: string;
  log: Log;
  allowLoopbackWebhooks?: boolean;
  /**
   * For npm run test:production-stack: the API replicas run with libfaketime preloaded, reading an
   * offset from DATA/clock/offset ("+0" at start), so a probe can move the clock the gateway reads
   * (the machine's, as far as the replicas can tell) without any setting of the gateway's.
   */
  movableClock?: boolean;
  /** `npm run stack:cluster`: the Temporal server as separate services, two history hosts, 16 shards. */
  cluster?: boolean;
  /** For npm run test:production-stack: CHECKOUT_EXPIRY_SECONDS short enough for a checkout to expire within the run. */
  checkoutExpirySeconds?: string;
}): Promise<ProductionStack> {
  const log = o.log;
  const ports = stackPorts();
  const dataDir = path.resolve(o.dataDir);
  const logDir = path.join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  // A hold left by an earlier run would keep a process down for good.
  rmSync(path.dirname(holdFileOf(dataDir, 'any')), { recursive: true, force: true });
  const secrets = stackSecrets(dataDir);
  const writeState = (): void => {
    if (!stateOf) return;
    // Written aside and renamed: a probe reading it meanwhile sees the old state or the new, never half of one.
    const file = path.join(dataDir, 'stack.json');
    writeFileSync(`${file}.new`, `${JSON.stringify(stateOf(), null, 2)}\n`);
    renameSync(`${file}.new`, file);
  };
  const b: StackBuild = { log, ports, dataDir, logDir, secrets, stoppers: [], supervised: [], writeState };
  const stop = async () => {
    for (const s of [...b.stoppers].reverse()) await s.stop().catch((e: Error) => log(`stopping ${s.name}: ${e.message}`));
  };

  try {
    const caddy = findCaddy();
    const faketime = o.movableClock ? findLibfaketime() : undefined;
    const { moduleDir } = installTemporalServer(TEMPORAL_SERVER_VERSION, log);
    installLocalServers({ temporal: true, ferretdb: true, log });

    const tlsRoot = path.join(dataDir, 'temporal-tls');
    const tls = issueTemporalCertificates(tlsRoot);

    await startStackPostgresql(b);
    const gatewaySettings = await startStackTemporal(b, moduleDir, tlsRoot, o.cluster ?? false);
    await startStackStore(b, gatewaySettings);
    const { caddyProcess, caddyRoot, publicUrl } = await startCaddy(b, caddy);
    const outsideCaddy = await startOutsideCaddy(b, caddy);
    await startStackSimulator(b, caddyRoot);
    const clock = faketime ? movableClock(b, faketime) : undefined;
    await startGatewayProcesses(b, {
      temporalTlsGatewayDir: tls.gateway,
      caddyRoot,
      allowLoopbackWebhooks: o.allowLoopbackWebhooks,
      checkoutExpirySeconds: o.checkoutExpirySeconds,
      apiExtraEnv: clock?.env ?? {},
    });

    const state = (): StackState => ({
      publicUrl,
      publicPorts: [ports.https, ports.http],
      ports,
      caddyRootCertificate: caddyRoot,
      dataDir,
      ...(clock ? { clockFile: clock.file } : {}),
      cluster: o.cluster ?? false,
      heldDir: path.dirname(holdFileOf(dataDir, 'any')),
      processes: Object.fromEntries([
        ['caddy', { pid: caddyProcess.child.pid, restarts: 0 }],
        ['outside caddy', { pid: outsideCaddy.child.pid, restarts: 0 }],
        ...b.supervised.map((s): [string, StackState['processes'][string]] => [
          s.name,
          { pid: s.current().child.pid, restarts: s.restarts() },
        ]),
      ]),
    });
    stateOf = state;
    writeState();
    return { state, secrets, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The Temporal server's processes (supervised) with its namespace and search attributes; returns the gateway's settings file. */
async function startStackTemporal(b: StackBuild, moduleDir: string, tlsRoot: string, cluster: boolean) {
  const { ports, logDir } = b;
  const serverEnv = {
    ...temporalServerEnv({ ports, postgresPassword: b.secrets.POSTGRES_PASSWORD, tlsRoot }),
    ...(cluster ? { NUM_HISTORY_SHARDS: String(CLUSTER_HISTORY_SHARDS) } : {}),
  };
  setupTemporalSchema(serverEnv);
  for (const server of cluster ? clusterTemporalProcesses(ports) : singleTemporalProcess(ports)) {
    const temporal = await supervise(
      server.name,
      () => startTemporalServer({ moduleDir, env: serverEnv, process: server, logDir }),
      supervision(b, server.name),
    );
    keepSupervised(b, temporal);
  }
  const temporalAddress = `127.0.0.1:${ports.temporal.frontend}`;
  const gatewaySettings = readEnvFile(gatewayEnvFile);
  registerNamespaceAndSearchAttributes({ address: temporalAddress, namespace: gatewaySettings.TEMPORAL_NAMESPACE, tlsRoot });
  b.log(
    `temporal: ${TEMPORAL_SERVER_VERSION} at ${temporalAddress} (mTLS), on PostgreSQL${cluster ? `, as ${clusterTemporalProcesses(ports).length} processes (${CLUSTER_HISTORY_SHARDS} history shards over two history hosts)` : ''}`,
  );
  return gatewaySettings;
}

/** Caddy, the public site (TLS by its local CA, whose root certificate it writes). */
async function startCaddy(b: StackBuild, caddy: string) {
  const { ports, logDir } = b;
  const caddyData = path.join(b.dataDir, 'caddy');
  const caddyRoot = path.join(caddyData, 'caddy', 'pki', 'authorities', 'local', 'root.crt');
  const caddyProcess = startProcess(
    'Caddy',
    caddy,
    ['run', '--config', caddyfile, '--adapter', 'caddyfile'],
    path.join(logDir, 'caddy.log'),
    {
      ...process.env,
      XDG_DATA_HOME: caddyData,
      XDG_CONFIG_HOME: caddyData,
      ...caddyEnvironment(ports, b.secrets.CODEC_TOKEN),
    },
  );
  b.stoppers.push({ name: 'Caddy', stop: () => caddyProcess.stop() });
  await waitForPort(caddyProcess, '127.0.0.1', ports.https, 30_000, path.join(logDir, 'caddy.log'));
  await waitForFile(caddyRoot, 30_000);
  const publicUrl = publicUrlOf(ports);
  b.log(`caddy: ${publicUrl} (TLS, its local CA: ${path.relative(projectRoot, caddyRoot)})`);
  return { caddyProcess, caddyRoot, publicUrl };
}

/**
 * The world outside the gateway, on loopback: the acquirer double and the merchant's site, TLS
 * from the same local CA (the same storage), so the gateway trusts one root.
 */
async function startOutsideCaddy(b: StackBuild, caddy: string) {
  const { ports, logDir } = b;
  const caddyData = path.join(b.dataDir, 'caddy');
  const outsideCaddy = startProcess(
    'outside Caddy',
    caddy,
    ['run', '--config', outsideCaddyfile, '--adapter', 'caddyfile'],
    path.join(logDir, 'outside-caddy.log'),
    { ...process.env, XDG_DATA_HOME: caddyData, XDG_CONFIG_HOME: caddyData, ...outsideCaddyEnvironment(ports) },
  );
  b.stoppers.push({ name: 'outside Caddy', stop: () => outsideCaddy.stop() });
  await waitForPort(outsideCaddy, '127.0.0.1', ports.acquirer, 30_000, path.join(logDir, 'outside-caddy.log'));
  b.log(
    `outside: the acquirer double at ${acquirerUrlOf(ports)} (the simulator behind TLS, unmarked), the merchant's site at https://127.0.0.1:${ports.merchantSite}`,
  );
  // The gateway runs as production but its bank is the simulator: say so where an operator looks.
  b.log('NOT A BANK: this stack pays through the bank simulator and moves no money; never serve it to real payers');
  return outsideCaddy;
}

/** The API replicas' wall clock through libfaketime, its offset in DATA/clock/offset ("+0" at start). */
function movableClock(b: StackBuild, faketime: string): { file: string; env: Record<string, string> } {
  const file = path.join(b.dataDir, 'clock', 'offset');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '+0\n');
  b.log(`clock: the API replicas read the wall clock through libfaketime, offset in ${path.relative(projectRoot, file)}`);
  // Monotonic clocks stay real (timers, timeouts); only the wall clock (Date) moves.
  const env = { LD_PRELOAD: faketime, FAKETIME_TIMESTAMP_FILE: file, FAKETIME_CACHE_DURATION: '1', DONT_FAKE_MONOTONIC: '1' };
  return { file, env };
}

const tsx = (entry: string, args: string[] = []) =>
  [process.execPath, ['--import', 'tsx', path.join(projectRoot, entry), ...args]] as const;

/**
 * The bank simulator as docker-compose.sandbox.yml runs it: not the gateway (never
 * GATEWAY_ENV=production), its own secret and admin token, no BANK_SECRET, on loopback only.
 * The gateway reaches it through the acquirer double, whose address its payer pages carry.
 */
async function startStackSimulator(b: StackBuild, caddyRoot: string): Promise<void> {
  const { ports, secrets } = b;
  const simulator = await supervise(
    'bank simulator',
    async () => {
      const [cmd, args] = tsx('src/main/bank-simulator.ts', [
        '--host',
        '127.0.0.1',
        '--port',
        String(ports.bankSimulator),
        '--public-url',
        acquirerUrlOf(ports),
        '--quiet',
      ]);
      const logFile = path.join(b.logDir, 'bank-simulator.log');
      const p = startProcess('bank simulator', cmd, [...args], logFile, {
        ...cleanEnv(),
        NODE_EXTRA_CA_CERTS: caddyRoot,
        GATEWAY_ENV: 'development',
        BANK_SIMULATOR_SECRET: secrets.BANK_SIMULATOR_SECRET,
        BANK_SIMULATOR_ADMIN_TOKEN: secrets.BANK_SIMULATOR_ADMIN_TOKEN,
        DATA_DIR: path.join(b.dataDir, 'bank-simulator'),
      });
      await waitForPort(p, '127.0.0.1', ports.bankSimulator, 60_000, logFile);
      return p;
    },
    supervision(b, 'bank simulator'),
  );
  keepSupervised(b, simulator);
}

/** The gateway's processes (supervised): two workers, then each API. */
async function startGatewayProcesses(
  b: StackBuild,
  o: {
    temporalTlsGatewayDir: string;
    caddyRoot: string;
    allowLoopbackWebhooks: boolean | undefined;
    checkoutExpirySeconds: string | undefined;
    /** The API replicas' own variables besides the gateway's (the movable clock). */
    apiExtraEnv: Record<string, string>;
  },
): Promise<void> {
  const { ports, secrets } = b;
  const gatewayEnv = {
    ...cleanEnv(),
    ...gatewayEnvironment({
      ports,
      secrets,
      temporalTlsGatewayDir: o.temporalTlsGatewayDir,
      caddyRootCertificate: o.caddyRoot,
      ...(o.allowLoopbackWebhooks ? { allowLoopbackWebhooks: true } : {}),
    }),
    ...(o.checkoutExpirySeconds ? { CHECKOUT_EXPIRY_SECONDS: o.checkoutExpirySeconds } : {}),
    LOG_LEVEL: productionStackLogLevel(process.env),
  };
  const gatewayProcess = (name: string, entry: string, extra: Record<string, string>, port?: number) =>
    supervise(
      name,
      async () => {
        const [cmd, args] = tsx(entry);
        const logFile = path.join(b.logDir, `${name}.log`);
        const p = startProcess(name, cmd, [...args], logFile, { ...gatewayEnv, ...extra });
        if (port) await waitForPort(p, '127.0.0.1', port, 120_000, logFile);
        return p;
      },
      supervision(b, name),
    );
  for (const name of ['worker-1', 'worker-2']) {
    const w = await gatewayProcess(name, 'src/main/worker.ts', {});
    keepSupervised(b, w);
  }
  for (const [i, port] of ports.api.entries()) {
    const name = `api-${i + 1}`;
    const api = await gatewayProcess(
      name,
      'src/main/api.ts',
      { ...apiEnvironment(port, ports.ops[i], secrets.OPS_TOKEN), ...o.apiExtraEnv },
      port,
    );
    keepSupervised(b, api);
  }
}

let stateOf: (() => StackState) | undefined;

/** The gateway's variables come from the stack alone, not from whatever the shell exported. */
function cleanEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR'];
  return Object.fromEntries(keep.flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
}

async function waitForFile(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear within ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
