import Router from '@koa/router';

/** GET /openapi.json: the API reference, assembled by app.ts from what the audience modules declare. */
export function openApiRoutes(document: object): Router {
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });
  return router;
}
