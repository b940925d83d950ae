import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';

/**
 * The settings of `npm run stack:production` (src/main/production-stack.ts). What the compose
 * stack sets too lives in the env files both read (deploy/production.env for the gateway's
 * processes, deploy/temporal/server.env for the Temporal server); what differs between a container
 * network and one machine (ports, paths) lives here. Every port but the public ones binds loopback.
 */

/** The Temporal server release, built from the go.temporal.io/server module; docker-compose.yml runs the same. */
export const TEMPORAL_SERVER_VERSION = '1.32.0';

export const gatewayEnvFile = path.join(projectRoot, 'deploy', 'production.env');
export const temporalServerEnvFile = path.join(projectRoot, 'deploy', 'temporal', 'server.env');
export const caddyfile = path.join(projectRoot, 'deploy', 'caddy', 'Caddyfile');
/** The stack's stand-in for the world outside the gateway (the acquirer's TLS front, the merchant's site): never deployed. */
export const outsideCaddyfile = path.join(projectRoot, 'src', 'devstack', 'production', 'outside.Caddyfile');
export const temporalTlsScript = path.join(projectRoot, 'deploy', 'temporal-tls', 'generate.sh');
export const temporalSchemaScript = path.join(projectRoot, 'deploy', 'temporal', 'setup-postgresql.sh');
export const searchAttributesScript = path.join(projectRoot, 'temporal-config', 'register-search-attributes.sh');
export const dynamicConfigFile = path.join(projectRoot, 'temporal-config', 'dynamicconfig', 'development.yaml');

/** KEY=VALUE lines of an env file as compose's env_file reads them (comments and blank lines skipped). */
export function readEnvFile(file: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`${file}: not KEY=VALUE: ${line}`);
    entries[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return entries;
}

const envPort = (name: string, fallback: number): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${name}: not a port: ${v}`);
  return n;
};

/** Where each process listens. PROD_STACK_* variables move them (e.g. when a port is taken). */
export function stackPorts() {
  const temporalBase = envPort('PROD_STACK_TEMPORAL_BASE_PORT', 17230);
  return {
    /** Public: Caddy's TLS site (payers and merchants). */
    https: envPort('PROD_STACK_HTTPS_PORT', 8443),
    /** Public: Caddy's redirect of http to https, as compose's port 80. */
    http: envPort('PROD_STACK_HTTP_PORT', 8080),
    /** Loopback: the API replicas (Caddy balances over them). */
    api: [envPort('PROD_STACK_API1_PORT', 13001), envPort('PROD_STACK_API2_PORT', 13002)],
    /** Loopback: each API replica's operator listener (OPS_PORT: the ops API and /metrics; never behind the public site). */
    ops: [envPort('PROD_STACK_OPS1_PORT', 13101), envPort('PROD_STACK_OPS2_PORT', 13102)],
    /** Loopback: the bank simulator's own listener (plain http, marked X-Bank-Simulator; its /admin/* for the probes; never behind the public Caddy). */
    bankSimulator: envPort('PROD_STACK_BANK_SIMULATOR_PORT', 14100),
    /** Loopback: the acquirer double, the simulator behind the outside Caddy's TLS (BANK_BASE_URL; the acquirer protocol and payer pages only, unmarked). */
    acquirer: envPort('PROD_STACK_ACQUIRER_PORT', 14443),
    /** Loopback: the merchant's webhook site (https, the outside Caddy) in front of the probes' receiver (merchantReceiver). */
    merchantSite: envPort('PROD_STACK_MERCHANT_SITE_PORT', 14444),
    /** Loopback: the probes' webhook receiver (plain http, reached through merchantSite only). */
    merchantReceiver: envPort('PROD_STACK_MERCHANT_RECEIVER_PORT', 14200),
    /** Loopback: Temporal UI's codec site (Caddy adds the codec-scoped operator token). */
    codec: envPort('PROD_STACK_CODEC_PORT', 18234),
    postgresql: envPort('PROD_STACK_POSTGRESQL_PORT', 15432),
    store: envPort('PROD_STACK_STORE_PORT', 17017),
    /** Loopback: Temporal's services, from this base: frontend gRPC +3, history +4 (the cluster's second history host +14), matching +5, worker +9, frontend HTTP +13, membership -300. */
    temporal: {
      frontend: temporalBase + 3,
      history: temporalBase + 4,
      history2: temporalBase + 14,
      matching: temporalBase + 5,
      worker: temporalBase + 9,
      frontendHttp: temporalBase + 13,
      membershipBase: temporalBase - 300,
    },
  };
}

export type StackPorts = ReturnType<typeof stackPorts>;

/** The host name payers reach (Caddy's certificate is issued for it by its local CA). */
export const PUBLIC_HOST = 'localhost';

/** The shell's PATH with `dir` searched first (a tool the stack built, ahead of any installed one). */
export const pathWith = (dir: string): string => `${dir}:${process.env.PATH ?? ''}`;
