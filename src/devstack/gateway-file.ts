import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Development only: `npm start` writes where its gateway listens, its mode and its operator token
 * to DATA_DIR/gateway.json (mode 0600, like the other local secrets) and removes the file when it
 * stops, so the operator CLI acts on whichever gateway and mode is running.
 */
export interface RunningGateway {
  baseUrl: string;
  /** The operator listener (the public one when the dev stack runs without OPS_PORT). */
  opsBaseUrl: string;
  opsToken: string;
  timeSkipping: boolean;
  pid: number;
}

export const gatewayFile = (dataDir: string) => path.join(dataDir, 'gateway.json');

export function writeRunningGateway(dataDir: string, gateway: RunningGateway): void {
  writeFileSync(gatewayFile(dataDir), `${JSON.stringify(gateway, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the file if it is still this process's (a second `npm start` may have replaced it). */
export function removeRunningGateway(dataDir: string, pid = process.pid): void {
  if (readRunningGateway(dataDir)?.pid === pid) rmSync(gatewayFile(dataDir), { force: true });
}

/** The gateway `npm start` announced, or null when there is no readable file. */
export function readRunningGateway(dataDir: string): RunningGateway | null {
  const file = gatewayFile(dataDir);
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunningGateway>;
    if (typeof parsed.baseUrl !== 'string' || typeof parsed.opsToken !== 'string') return null;
    return {
      baseUrl: parsed.baseUrl,
      opsBaseUrl: typeof parsed.opsBaseUrl === 'string' ? parsed.opsBaseUrl : parsed.baseUrl,
      opsToken: parsed.opsToken,
      timeSkipping: parsed.timeSkipping === true,
      pid: Number(parsed.pid),
    };
  } catch {
    return null;
  }
}

/** The address a local client calls for a server bound to `host` (a wildcard bind is reached on loopback). */
export function localAddress(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}
