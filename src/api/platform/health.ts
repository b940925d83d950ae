import Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { operatorAuth } from '../middleware/operator-auth';

/** Liveness and readiness (store and Temporal reachable), on every listener. */
export function healthRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/ready', async (ctx) => {
    const { store, temporal } = await deps.useCases.platform.readiness();
    const ready = store === 'ok' && temporal === 'ok';
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'unavailable', store, temporal };
  });
  return router;
}

/** GET /metrics, on the ops listener: names every merchant with webhook traffic and costs a store read. */
export function metricsRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.get('/metrics', operatorAuth(deps, 'metrics'), async (ctx) => {
    ctx.type = deps.metrics.contentType;
    ctx.body = await deps.metrics.metrics();
  });
  return router;
}
