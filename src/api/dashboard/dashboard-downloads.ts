import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { istDate } from '../../domain/ist-time';
import {
  bulkRecordSchema,
  ledgerRecordSchema,
  toBulkRecord,
  toLedgerRecord,
  type BulkRecord,
  type LedgerRecord,
} from '../../domain/ledger-record';
import { txnStatusesFor } from '../../domain/ledger-state';
import { DATE_PATTERN, istDay } from '../../domain/report-range';
import type { Transaction } from '../../domain/transaction';
import { respondWithCsv } from '../csv-stream';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import { dashboardSession, dashboardState } from '../middleware/dashboard-session';
import { downloadsPage } from '../pages/dashboard-downloads-page';
import { formProblem } from '../schemas/dashboard';
import { MAX_SEARCH_DAYS } from '../schemas/dashboard-transactions';

const DAY_MS = 86_400_000;
const date = z.string().regex(DATE_PATTERN, 'must be a date yyyy-MM-dd');
const ledgerQuerySchema = z.strictObject({ from: date, to: date });
const dayQuerySchema = z.strictObject({ day: date });

const LEDGER_COLUMNS = Object.keys(ledgerRecordSchema.shape) as (keyof LedgerRecord)[];
const BULK_COLUMNS = Object.keys(bulkRecordSchema.shape) as (keyof BulkRecord)[];

/**
 * Downloads as CSV, streamed from the same store queries and record formatting as the ledger API
 * (POST /api/v1/ledger, every status, delayed successes included) and the bulk API (POST
 * /api/v1/fetchtxn), of the signed-in user's merchant only.
 */
export function dashboardDownloadRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard/downloads' });
  router.use(dashboardSession(deps));
  const today = () => istDate(deps.now());
  const refuse = (ctx: Context, error: string) =>
    sendPage(ctx, 400, downloadsPage(dashboardState(ctx).viewer, { today: today(), error: `${error} Nothing was downloaded.` }));

  router.get('/', (ctx) => sendPage(ctx, 200, downloadsPage(dashboardState(ctx).viewer, { today: today() })));

  router.get('/ledger.csv', async (ctx) => {
    const parsed = ledgerQuerySchema.safeParse(ctx.query);
    if (!parsed.success) return refuse(ctx, formProblem(parsed.error));
    const from = istDay(parsed.data.from);
    const to = istDay(parsed.data.to);
    if (!from || !to) return refuse(ctx, 'from and to must be real dates.');
    if (from.from > to.from) return refuse(ctx, 'The period starts after it ends.');
    if ((to.until.getTime() - from.from.getTime()) / DAY_MS > MAX_SEARCH_DAYS)
      return refuse(ctx, `Download at most ${MAX_SEARCH_DAYS} days at once.`);
    const cursor = deps.useCases.dashboard.ledgerCursor({
      merchantIdentifier: dashboardState(ctx).viewer.merchantIdentifier,
      from: from.from,
      until: to.until,
      statuses: txnStatusesFor('ALL'),
    });
    await respondWithCsv(ctx, cursor, {
      filename: `ledger-${parsed.data.from}-to-${parsed.data.to}.csv`,
      columns: LEDGER_COLUMNS,
      record: (t: Transaction) => toLedgerRecord(t),
    });
  });

  router.get('/successful.csv', async (ctx) => {
    const parsed = dayQuerySchema.safeParse(ctx.query);
    if (!parsed.success) return refuse(ctx, formProblem(parsed.error));
    const day = istDay(parsed.data.day);
    if (!day) return refuse(ctx, 'day must be a real date.');
    const merchant = (await deps.useCases.dashboard.findMerchant(dashboardState(ctx).viewer.merchantIdentifier))!;
    const cursor = deps.useCases.dashboard.bulkCursor({
      merchantIdentifier: merchant.merchantIdentifier,
      from: day.from,
      until: day.until,
      statuses: txnStatusesFor('SUCCESS'),
    });
    await respondWithCsv(ctx, cursor, {
      filename: `successful-${parsed.data.day}.csv`,
      columns: BULK_COLUMNS,
      record: (t: Transaction) => toBulkRecord(t, merchant.secretKey),
    });
  });

  return router;
}
