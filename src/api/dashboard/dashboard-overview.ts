import { lastIstDays } from '../../domain/overview';
import type { ApiDeps } from '../deps';
import type { DashboardState } from '../middleware/dashboard-session';
import { HtmlPage } from '../operation';
import { overviewPage } from '../pages/dashboard-overview-page';

export const OVERVIEW_DAYS = 14;
/** Failed deliveries counted on the overview at most (the delivery log lists them all). */
const FAILED_SHOWN = 100;

/**
 * GET /dashboard: the overview. The merchant's daily figures of the last 14 IST days (14 documents
 * by _id, kept up to date by every write of its transactions), one range read of its failed
 * deliveries (merchant_created of webhook_deliveries, at most 101) and its endpoint's health by
 * _id: the cost is the same whatever the merchant's volume and the store's size.
 */
export async function overview({ viewer }: DashboardState, deps: ApiDeps): Promise<HtmlPage> {
  const now = deps.now();
  const days = lastIstDays(now, OVERVIEW_DAYS);
  const from = days[0].from;
  const until = days.at(-1)!.until;
  const [figures, { endpoint, failed }] = await Promise.all([
    deps.useCases.dashboard.overviewFigures(viewer.merchantIdentifier, now, OVERVIEW_DAYS),
    deps.useCases.dashboard.webhookTrouble(viewer.merchantIdentifier, { from, until }, FAILED_SHOWN + 1),
  ]);
  return new HtmlPage(
    200,
    overviewPage(viewer, figures, {
      endpoint,
      failedDeliveries: {
        count: Math.min(failed.length, FAILED_SHOWN),
        more: failed.length > FAILED_SHOWN,
        earliest: failed.slice(0, 3),
      },
    }),
  );
}
