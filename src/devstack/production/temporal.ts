import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SetupError } from '../install';
import { temporalCliPath, temporalServerPath, temporalSqlToolPath } from '../paths';
import { startProcess, waitForPort, type ManagedProcess } from '../process';
import {
  dynamicConfigFile,
  readEnvFile,
  searchAttributesScript,
  temporalSchemaScript,
  temporalServerEnvFile,
  temporalTlsScript,
  type StackPorts,
  pathWith,
} from './settings';

/**
 * The Temporal server of the production stack: the release built from go.temporal.io/server, run
 * with the module's own config template (config/docker.yaml, the one the temporalio/server image
 * renders) and the variables of deploy/temporal/server.env, like docker-compose.yml's temporal
 * service. Its certificates come from deploy/temporal-tls/generate.sh, its schemas from
 * deploy/temporal/setup-postgresql.sh, its namespace and search attributes from
 * temporal-config/register-search-attributes.sh: the compose stack's own scripts.
 */

/** The directories generate.sh fills, as compose's four volumes: ca, server, gateway, tools. */
export function temporalTlsDirs(root: string) {
  return {
    root,
    server: path.join(root, 'server'),
    gateway: path.join(root, 'gateway'),
    tools: path.join(root, 'tools'),
  };
}

/** Issues the private CA and the certificates (kept when they exist, as in compose). */
export function issueTemporalCertificates(root: string): ReturnType<typeof temporalTlsDirs> {
  const dirs = temporalTlsDirs(root);
  for (const d of ['ca', 'server', 'gateway', 'tools']) mkdirSync(path.join(root, d), { recursive: true, mode: 0o700 });
  runScript(
    'sh',
    [temporalTlsScript],
    { TEMPORAL_TLS_ROOT: root },
    'issuing the mTLS certificates (deploy/temporal-tls/generate.sh)',
  );
  return dirs;
}

/** Variables of the server's config template: the shared file plus where things are on this machine. */
export function temporalServerEnv(o: { ports: StackPorts; postgresPassword: string; tlsRoot: string }): Record<string, string> {
  const t = o.ports.temporal;
  const tls = temporalTlsDirs(o.tlsRoot);
  const server = (f: string) => path.join(tls.server, f);
  return {
    ...readEnvFile(temporalServerEnvFile),
    POSTGRES_SEEDS: '127.0.0.1',
    DB_PORT: String(o.ports.postgresql),
    POSTGRES_PORT: String(o.ports.postgresql),
    POSTGRES_PWD: o.postgresPassword,
    BIND_ON_IP: '127.0.0.1',
    TEMPORAL_BROADCAST_ADDRESS: '127.0.0.1',
    FRONTEND_GRPC_PORT: String(t.frontend),
    FRONTEND_HTTP_PORT: String(t.frontendHttp),
    HISTORY_GRPC_PORT: String(t.history),
    MATCHING_GRPC_PORT: String(t.matching),
    WORKER_GRPC_PORT: String(t.worker),
    FRONTEND_MEMBERSHIP_PORT: String(t.membershipBase + 3),
    HISTORY_MEMBERSHIP_PORT: String(t.membershipBase + 4),
    MATCHING_MEMBERSHIP_PORT: String(t.membershipBase + 5),
    WORKER_MEMBERSHIP_PORT: String(t.membershipBase + 9),
    DYNAMIC_CONFIG_FILE_PATH: dynamicConfigFile,
    TEMPORAL_TLS_SERVER_CA_CERT: server('ca.pem'),
    TEMPORAL_TLS_SERVER_CERT: server('server.pem'),
    TEMPORAL_TLS_SERVER_KEY: server('server.key'),
    TEMPORAL_TLS_FRONTEND_CERT: server('server.pem'),
    TEMPORAL_TLS_FRONTEND_KEY: server('server.key'),
    TEMPORAL_TLS_CLIENT1_CA_CERT: server('ca.pem'),
    TEMPORAL_TLS_CLIENT2_CA_CERT: server('ca.pem'),
  };
}

/** Creates the databases when missing and updates their schemas (deploy/temporal/setup-postgresql.sh). */
export function setupTemporalSchema(env: Record<string, string>): void {
  runScript('sh', [temporalSchemaScript], { ...env, TEMPORAL_SQL_TOOL: temporalSqlToolPath }, "setting up Temporal's schemas");
}

/** One process of the Temporal server: every service (the production stack) or those named (a cluster's). */
export interface TemporalProcess {
  name: string;
  /** The services it runs (`--service`); all of them when empty. */
  services: string[];
  /** The gRPC port that answers once it serves. */
  port: number;
  /** Its own variables over the shared ones (a second history host's ports). */
  env?: Record<string, string>;
}

/** The server as one process of every service (`npm run stack:production`, compose's `temporal`). */
export const singleTemporalProcess = (ports: StackPorts): TemporalProcess[] => [
  { name: 'Temporal server', services: [], port: ports.temporal.frontend },
];

/**
 * The server as a cluster (`npm run stack:cluster`, compose's cluster file): frontend, matching,
 * Temporal's own worker and two history hosts, each its own process sharing one PostgreSQL and
 * finding the others through it (membership). The history shards (NUM_HISTORY_SHARDS, fixed when
 * the database is created) are spread over the history hosts; losing one moves its shards to the other.
 */
export const CLUSTER_HISTORY_SHARDS = 16;
export function clusterTemporalProcesses(ports: StackPorts): TemporalProcess[] {
  const t = ports.temporal;
  return [
    { name: 'temporal-history-1', services: ['history'], port: t.history },
    {
      name: 'temporal-history-2',
      services: ['history'],
      port: t.history2,
      env: { HISTORY_GRPC_PORT: String(t.history2), HISTORY_MEMBERSHIP_PORT: String(t.membershipBase + 14) },
    },
    { name: 'temporal-matching', services: ['matching'], port: t.matching },
    { name: 'temporal-frontend', services: ['frontend'], port: t.frontend },
    { name: 'temporal-worker', services: ['worker'], port: t.worker },
  ];
}

export async function startTemporalServer(o: {
  moduleDir: string;
  env: Record<string, string>;
  process: TemporalProcess;
  logDir: string;
}): Promise<ManagedProcess> {
  const logFile = path.join(o.logDir, `${o.process.name.toLowerCase().replace(/\s+/g, '-')}.log`);
  const p = startProcess(
    o.process.name,
    temporalServerPath,
    [
      '--config-file',
      path.join(o.moduleDir, 'config', 'docker.yaml'),
      '--allow-no-auth',
      'start',
      ...o.process.services.flatMap((s) => ['--service', s]),
    ],
    logFile,
    { ...process.env, ...o.env, ...o.process.env },
  );
  await waitForPort(p, '127.0.0.1', o.process.port, 120_000, logFile);
  return p;
}

/**
 * The namespace and the gateway's search attributes, by temporal-config/register-search-attributes.sh
 * with the temporal CLI over mTLS (the tools' certificate), as compose's admin-tools job.
 */
export function registerNamespaceAndSearchAttributes(o: { address: string; namespace: string; tlsRoot: string }): void {
  const tools = temporalTlsDirs(o.tlsRoot).tools;
  runScript(
    'sh',
    [searchAttributesScript],
    {
      PATH: pathWith(path.dirname(temporalCliPath)),
      TEMPORAL_ADDRESS: o.address,
      TEMPORAL_NAMESPACE: o.namespace,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: path.join(tools, 'ca.pem'),
      TEMPORAL_TLS_CLIENT_CERT_PATH: path.join(tools, 'client.pem'),
      TEMPORAL_TLS_CLIENT_KEY_PATH: path.join(tools, 'client.key'),
      TEMPORAL_TLS_SERVER_NAME: 'temporal',
    },
    'registering the namespace and search attributes',
  );
}

function runScript(cmd: string, args: string[], env: Record<string, string>, what: string): void {
  const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new SetupError(`${what} failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
}
