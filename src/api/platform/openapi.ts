import Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { buildOpenApiDocument } from '../openapi';

/** GET /openapi.json: the API reference generated from the route schemas. */
export function openApiRoutes(deps: ApiDeps): Router {
  const router = new Router();
  const document = buildOpenApiDocument(
    deps.config.PUBLIC_BASE_URL,
    deps.config.SANDBOX_ENABLED,
    deps.config.TIME_SKIPPING,
    deps.config.BANK_CONNECTOR === 'http',
  );
  router.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });
  return router;
}
