import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gatewayFile, readRunningGateway } from '../devstack/gateway-file';
import { CliFailure } from './failures';

/** The gateway's operator listener the CLI talks to and the operator token it presents. */
export interface GatewayTarget {
  baseUrl: string;
  opsToken: string;
}

/**
 * GATEWAY_URL (the operator listener, OPS_HOST:OPS_PORT, e.g. through an SSH tunnel) and OPS_TOKEN
 * from the environment; otherwise the gateway `npm start` announced in DATA_DIR/gateway.json (its
 * operator listener's address, mode and token). A GATEWAY_URL
 * without OPS_TOKEN uses the announced token only for that same address, then the development
 * token in DATA_DIR/ops.token (what `npm run api` uses outside production).
 */
export function gatewayTarget(env: NodeJS.ProcessEnv): GatewayTarget {
  const dataDir = path.resolve(env.DATA_DIR || '.data');
  const running = readRunningGateway(dataDir);
  const baseUrl = (env.GATEWAY_URL || running?.opsBaseUrl || '').replace(/\/+$/, '');
  if (!baseUrl) {
    const relative = path.relative(process.cwd(), gatewayFile(dataDir));
    throw new CliFailure(
      `no gateway to talk to: set GATEWAY_URL and OPS_TOKEN, or start one with npm start (it writes ${relative.startsWith('..') ? gatewayFile(dataDir) : relative})`,
    );
  }
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl))
    throw new CliFailure(`GATEWAY_URL: must be an http(s) address such as http://127.0.0.1:3000, not ${JSON.stringify(baseUrl)}`);
  const announced = running && running.opsBaseUrl.replace(/\/+$/, '') === baseUrl ? running.opsToken : undefined;
  const tokenFile = path.join(dataDir, 'ops.token');
  const opsToken = env.OPS_TOKEN || announced || (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '');
  if (!opsToken) throw new CliFailure(`no operator token for ${baseUrl}: set OPS_TOKEN to the gateway's operator token`);
  return { baseUrl, opsToken };
}
