import path from 'node:path';
import type { StackSecrets } from './secrets';
import { gatewayEnvFile, PUBLIC_HOST, readEnvFile, type StackPorts } from './settings';

/**
 * The environments the production stack gives Caddy and the gateway's processes: the shared env
 * file (deploy/production.env, also compose's: GATEWAY_ENV=production, BANK_CONNECTOR=http), plus
 * what is this machine's (loopback addresses, file paths, the generated secrets) and the bank: the
 * acquirer double (the simulator behind the outside Caddy's TLS, outside.Caddyfile), whose secret
 * is the simulator's own. test/deploy/compose.test.ts compares them with compose's.
 */

export const publicUrlOf = (ports: StackPorts) => `https://${PUBLIC_HOST}:${ports.https}`;
/** The simulator's own listener: loopback, plain http, marked X-Bank-Simulator; the probes read its /admin/* there. */
export const bankSimulatorUrlOf = (ports: StackPorts) => `http://127.0.0.1:${ports.bankSimulator}`;
/** The acquirer double (BANK_BASE_URL, and the address of the bank's payer pages): https on loopback, unmarked. */
export const acquirerUrlOf = (ports: StackPorts) => `https://127.0.0.1:${ports.acquirer}`;
/** The merchant's site: the probes' webhook receiver behind https, as production requires of webhook URLs. */
export const merchantSiteUrlOf = (ports: StackPorts) => `https://127.0.0.1:${ports.merchantSite}`;

/** The variables src/devstack/production/outside.Caddyfile reads. */
export function outsideCaddyEnvironment(ports: StackPorts): Record<string, string> {
  return {
    ACQUIRER_SITE: acquirerUrlOf(ports),
    BANK_SIMULATOR: `127.0.0.1:${ports.bankSimulator}`,
    MERCHANT_SITE: merchantSiteUrlOf(ports),
    MERCHANT_RECEIVER: `127.0.0.1:${ports.merchantReceiver}`,
  };
}

/** The variables deploy/caddy/Caddyfile reads. */
export function caddyEnvironment(ports: StackPorts, codecToken: string): Record<string, string> {
  return {
    PUBLIC_HOST,
    HTTPS_PORT: String(ports.https),
    HTTP_PORT: String(ports.http),
    API_UPSTREAMS: ports.api.map((p) => `127.0.0.1:${p}`).join(' '),
    CODEC_SITE: `http://127.0.0.1:${ports.codec}`,
    CODEC_BIND: '127.0.0.1',
    OPS_UPSTREAM: `127.0.0.1:${ports.ops[0]}`,
    CODEC_TOKEN: codecToken,
  };
}

/** The variables of src/config.ts every API replica and worker runs with (an API adds its listeners, TRUST_PROXY and OPS_TOKEN). */
export function gatewayEnvironment(o: {
  ports: StackPorts;
  secrets: StackSecrets;
  temporalTlsGatewayDir: string;
  caddyRootCertificate: string;
  allowLoopbackWebhooks?: boolean;
}): Record<string, string> {
  return {
    ...readEnvFile(gatewayEnvFile),
    NODE_EXTRA_CA_CERTS: o.caddyRootCertificate,
    MONGODB_URI: `mongodb://gateway:${o.secrets.STORE_PASSWORD}@127.0.0.1:${o.ports.store}/?authMechanism=PLAIN&authSource=%24external`,
    TEMPORAL_ADDRESS: `127.0.0.1:${o.ports.temporal.frontend}`,
    TEMPORAL_TLS_CA_FILE: path.join(o.temporalTlsGatewayDir, 'ca.pem'),
    TEMPORAL_TLS_CERT_FILE: path.join(o.temporalTlsGatewayDir, 'client.pem'),
    TEMPORAL_TLS_KEY_FILE: path.join(o.temporalTlsGatewayDir, 'client.key'),
    MASTER_KEY: o.secrets.MASTER_KEY,
    PUBLIC_BASE_URL: publicUrlOf(o.ports),
    BANK_BASE_URL: acquirerUrlOf(o.ports),
    // The acquirer double's secret is the simulator's own: this stack holds no real acquirer's
    // BANK_SECRET at all.
    BANK_SECRET: o.secrets.BANK_SIMULATOR_SECRET,
    // Production refuses the sandbox payee; the simulator accepts any.
    UPI_PAYEE_VPA: 'merchantgateway@stackbank',
    ...(o.allowLoopbackWebhooks ? { WEBHOOK_ALLOW_LOOPBACK: 'true' } : {}),
  };
}

/**
 * An API replica's own: loopback, behind Caddy; its operator listener on loopback, never behind
 * Caddy's public site; the break-glass OPS_TOKEN, which only the operator API reads (never the worker).
 */
export const apiEnvironment = (port: number, opsPort: number, opsToken: string): Record<string, string> => ({
  OPS_TOKEN: opsToken,
  API_HOST: '127.0.0.1',
  API_PORT: String(port),
  OPS_HOST: '127.0.0.1',
  OPS_PORT: String(opsPort),
  TRUST_PROXY: 'true',
});
