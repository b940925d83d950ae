import { transactionKindFilter } from '../../domain/transaction-kind';
import { HtmlPage } from '../operation';
import { mandatesPage } from '../pages/dashboard-mandates-page';
import { listPeriod } from '../schemas/dashboard-lists';
import { dashboardOperation } from './dashboard-operation';

const SHOWN = 200;

/**
 * Mandates (read only): the merchant's mandates created in a period (merchant_created of mandates)
 * with their state, and the period's debits (the transactions search, kind mandate debit).
 */
export const dashboardMandatesOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/mandates',
  async handle({ caller: { viewer }, query }, deps) {
    const period = listPeriod(query, deps.now(), 30);
    const base = { from: period.fromText, to: period.toText };
    if (!period.ok)
      return new HtmlPage(400, mandatesPage(viewer, { ...base, mandates: [], debits: [], more: false, error: period.problem }));
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
    return new HtmlPage(
      200,
      mandatesPage(viewer, { ...base, mandates: mandates.slice(0, SHOWN), debits: debits.slice(0, SHOWN), more }),
    );
  },
});
