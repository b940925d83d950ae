/** The HTTP API process (production entry point; `npm start` runs it in-process with the rest). */
import type { Server } from 'node:http';
import { createApp } from '../api/app';
import { createServer } from '../api/server';
import { createLogger } from '../logger';
import { apiDeps, openRuntime, type Runtime } from '../runtime';
import { configOrExit, storeUri, temporalAddress } from './load-config';
import { onShutdown } from './shutdown';

export async function serveApi(rt: Runtime): Promise<Server> {
  const server = createServer(createApp(apiDeps(rt)), { requestTimeoutMs: rt.config.REQUEST_TIMEOUT_SECONDS * 1000 });
  server.listen(rt.config.API_PORT, rt.config.API_HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return server;
}

export const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

if (require.main === module) {
  void (async () => {
    const config = configOrExit();
    const logger = createLogger(config.LOG_LEVEL, 'api');
    const rt = await openRuntime(config, logger, storeUri(config), temporalAddress(config));
    const server = await serveApi(rt);
    logger.info({ url: `http://${config.API_HOST}:${config.API_PORT}` }, 'API listening');
    onShutdown(async () => {
      await closeServer(server);
      await rt.close();
    });
  })();
}
