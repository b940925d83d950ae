import type { Context, Next } from 'koa';
import { notFoundPage } from '../middleware/dashboard-session';
import { HtmlPage } from '../operation';
import { accountPage } from '../pages/dashboard-home-page';
import { dashboardOperation } from './dashboard-operation';
import { overview } from './dashboard-overview';

/** The dashboard's first page: the overview. */
export const dashboardOverviewOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard',
  handle: ({ caller }, deps) => overview(caller, deps),
});

/** The user's own account page. */
export const dashboardAccountOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/account',
  handle: async ({ caller }) => new HtmlPage(200, accountPage(caller.viewer)),
});

/** Any other address under /dashboard is a page too: 404 as HTML, not the APIs' JSON envelope. */
export function dashboardNotFound() {
  return async (ctx: Context, next: Next) => {
    await next();
    const dashboard = ctx.path === '/dashboard' || ctx.path.startsWith('/dashboard/');
    if (dashboard && ctx.body === undefined && ctx.status === 404) notFoundPage(ctx);
  };
}
