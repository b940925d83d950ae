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
import type { ApiDeps } from '../deps';
import { CsvDownload, HtmlPage } from '../operation';
import { downloadsPage } from '../pages/dashboard-downloads-page';
import { formProblem } from '../schemas/dashboard';
import { MAX_SEARCH_DAYS } from '../schemas/dashboard-transactions';
import { dashboardOperation, type DashboardRequest } from './dashboard-operation';

const DAY_MS = 86_400_000;
const date = z.string().regex(DATE_PATTERN, 'must be a date yyyy-MM-dd');
const ledgerQuerySchema = z.strictObject({ from: date, to: date });
const dayQuerySchema = z.strictObject({ day: date });

const LEDGER_COLUMNS = Object.keys(ledgerRecordSchema.shape) as (keyof LedgerRecord)[];
const BULK_COLUMNS = Object.keys(bulkRecordSchema.shape) as (keyof BulkRecord)[];

const today = (deps: ApiDeps) => istDate(deps.now());
/** The downloads page saying why nothing was downloaded (400). */
const refuse = (r: DashboardRequest, deps: ApiDeps, error: string) =>
  new HtmlPage(400, downloadsPage(r.caller.viewer, { today: today(deps), error: `${error} Nothing was downloaded.` }));

/**
 * Downloads as CSV, streamed from the same store queries and record formatting as the ledger API
 * (POST /api/v1/ledger, every status, delayed successes included) and the bulk API (POST
 * /api/v1/fetchtxn), of the signed-in user's merchant only.
 */
export const downloadsPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/downloads',
  handle: async (r, deps) => new HtmlPage(200, downloadsPage(r.caller.viewer, { today: today(deps) })),
});

export const ledgerCsvOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/downloads/ledger.csv',
  async handle(r, deps) {
    const parsed = ledgerQuerySchema.safeParse(r.query);
    if (!parsed.success) return refuse(r, deps, formProblem(parsed.error));
    const from = istDay(parsed.data.from);
    const to = istDay(parsed.data.to);
    if (!from || !to) return refuse(r, deps, 'from and to must be real dates.');
    if (from.from > to.from) return refuse(r, deps, 'The period starts after it ends.');
    if ((to.until.getTime() - from.from.getTime()) / DAY_MS > MAX_SEARCH_DAYS)
      return refuse(r, deps, `Download at most ${MAX_SEARCH_DAYS} days at once.`);
    const cursor = deps.useCases.dashboard.ledgerCursor({
      merchantIdentifier: r.caller.viewer.merchantIdentifier,
      from: from.from,
      until: to.until,
      statuses: txnStatusesFor('ALL'),
    });
    return new CsvDownload(cursor, {
      filename: `ledger-${parsed.data.from}-to-${parsed.data.to}.csv`,
      columns: LEDGER_COLUMNS,
      record: (t: Transaction) => toLedgerRecord(t),
    });
  },
});

export const successfulCsvOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/downloads/successful.csv',
  async handle(r, deps) {
    const parsed = dayQuerySchema.safeParse(r.query);
    if (!parsed.success) return refuse(r, deps, formProblem(parsed.error));
    const day = istDay(parsed.data.day);
    if (!day) return refuse(r, deps, 'day must be a real date.');
    const merchant = (await deps.useCases.dashboard.findMerchant(r.caller.viewer.merchantIdentifier))!;
    const cursor = deps.useCases.dashboard.bulkCursor({
      merchantIdentifier: merchant.merchantIdentifier,
      from: day.from,
      until: day.until,
      statuses: txnStatusesFor('SUCCESS'),
    });
    return new CsvDownload(cursor, {
      filename: `successful-${parsed.data.day}.csv`,
      columns: BULK_COLUMNS,
      record: (t: Transaction) => toBulkRecord(t, merchant.secretKey),
    });
  },
});

export const downloadOperations = [downloadsPageOperation, ledgerCsvOperation, successfulCsvOperation];
