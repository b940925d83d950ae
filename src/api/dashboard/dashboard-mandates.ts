import Router from '@koa/router';
import { transactionKindFilter } from '../../domain/transaction-kind';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import { dashboardSession, dashboardState } from '../middleware/dashboard-session';
import { mandatesPage } from '../pages/dashboard-mandates-page';
import { listPeriod } from '../schemas/dashboard-lists';

const SHOWN = 200;

/**
 * Mandates (read only): the merchant's mandates created in a period (merchant_created of mandates)
 * with their state, and the period's debits (the transactions search, kind mandate debit).
 */
export function dashboardMandateRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard/mandates' });
  router.use(dashboardSession(deps));
  router.get('/', async (ctx) => {
    const { viewer } = dashboardState(ctx);
    const period = listPeriod(ctx.query, deps.now(), 30);
    const base = { from: period.fromText, to: period.toText };
    if (!period.ok)
      return sendPage(ctx, 400, mandatesPage(viewer, { ...base, mandates: [], debits: [], more: false, error: period.problem }));
    const [mandates, debits] = await Promise.all([
      deps.useCases.dashboard.mandatesCreatedBetween(viewer.merchantIdentifier, period.from, period.until, SHOWN + 1),
      deps.useCases.dashboard.searchTransactions({
        merchantIdentifier: viewer.merchantIdentifier,
        from: period.from,
        until: period.until,
        where: [transactionKindFilter('mandate-debit')],
        limit: SHOWN + 1,
      }),
    ]);
    const more = mandates.length > SHOWN || debits.length > SHOWN;
    sendPage(
      ctx,
      200,
      mandatesPage(viewer, { ...base, mandates: mandates.slice(0, SHOWN), debits: debits.slice(0, SHOWN), more }),
    );
  });
  return router;
}
