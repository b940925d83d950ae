/** The HTTP API process (production entry point; `npm start` runs it in-process with the rest). */
import { tracing } from './tracing-first'; // first: see its comment
import type { Server } from 'node:http';
import { createApp, refusalsOfPath } from '../api/app';
import type { Listener } from '../api/audience';
import { createServer } from '../api/server';
import { productionLike } from '../config-checks';
import { createLogger } from '../logger';
import { apiDeps } from './api-deps';
import { openRuntime, type Runtime } from './runtime';
import { configOrExit, storeUri, temporalAddress } from './load-config';
import { onShutdown } from './shutdown';

/** The API's listeners: the public one, and the operator's when OPS_PORT gives it its own (staging and production always). */
export interface ApiListeners {
  servers: Server[];
  /** Where the operator API listens (the public listener's address without OPS_PORT). */
  opsHost: string;
  opsPort: number;
}

export async function serveApi(rt: Runtime): Promise<ApiListeners> {
  const c = rt.config;
  const split = c.http.opsPort !== undefined;
  if (!c.secrets.opsToken) throw new Error('OPS_TOKEN: required by the API (the break-glass operator token)');
  // The operator API on the public listener would put every operator token one request from the Internet.
  if (!split && productionLike(c.env))
    throw new Error(`OPS_PORT: required in ${c.env} (the operator API's own listener, never published)`);
  const servers = [
    await listen(rt, split ? 'public' : 'both', c.http.port, c.http.host),
    ...(split ? [await listen(rt, 'ops', c.http.opsPort, c.http.opsHost)] : []),
  ];
  if (productionLike(c.env))
    rt.logger.warn(
      'OPS_TOKEN is the break-glass operator token (every scope): keep it offline and use scoped operator tokens (docs/operators/production.md)',
    );
  return { servers, opsHost: split ? c.http.opsHost : c.http.host, opsPort: split ? c.http.opsPort : c.http.port };
}

async function listen(rt: Runtime, listener: Listener, port: number, host: string): Promise<Server> {
  const server = createServer(createApp(apiDeps(rt), listener), {
    requestTimeoutMs: rt.config.http.requestTimeoutSeconds * 1000,
    refusalsOfPath,
  });
  server.listen(port, host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return server;
}

export const closeServers = (l: ApiListeners) =>
  Promise.all(l.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));

if (require.main === module) {
  void (async () => {
    const config = configOrExit();
    const logger = createLogger(config.observability.logLevel, 'api');
    const rt = await openRuntime(config, logger, storeUri(config), temporalAddress(config));
    const listeners = await serveApi(rt).catch(async (e: Error) => {
      logger.fatal(e.message);
      await rt.close();
      process.exit(1);
    });
    logger.info(
      { url: `http://${config.http.host}:${config.http.port}`, ops: `http://${listeners.opsHost}:${listeners.opsPort}` },
      'API listening',
    );
    onShutdown(async () => {
      await closeServers(listeners);
      await rt.close();
      await tracing?.shutdown();
    });
  })();
}
