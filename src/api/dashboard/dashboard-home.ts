import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import { dashboardSession, dashboardState, notFoundPage } from '../middleware/dashboard-session';
import { accountPage } from '../pages/dashboard-home-page';
import { overview } from './dashboard-overview';

/** The dashboard's first page (the overview) and the user's own account page. */
export function dashboardHomeRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard' });
  const session = dashboardSession(deps);
  router.get('/', session, overview(deps));
  router.get('/account', session, (ctx) => sendPage(ctx, 200, accountPage(dashboardState(ctx).viewer)));
  return router;
}

/** Any other address under /dashboard is a page too: 404 as HTML, not the APIs' JSON envelope. */
export function dashboardNotFound() {
  return async (ctx: Context, next: Next) => {
    await next();
    const dashboard = ctx.path === '/dashboard' || ctx.path.startsWith('/dashboard/');
    if (dashboard && ctx.body === undefined && ctx.status === 404) notFoundPage(ctx);
  };
}
