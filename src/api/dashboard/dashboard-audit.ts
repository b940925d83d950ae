import { z } from 'zod';
import { HtmlPage } from '../operation';
import { auditPage } from '../pages/dashboard-audit-page';
import { dashboardOperation } from './dashboard-operation';

const PAGE_SIZE = 50;
const querySchema = z.strictObject({ before: z.iso.datetime({ offset: true }).optional() });

/** The owner's Audit page: the merchant's audit trail, newest first, PAGE_SIZE a page (older: `before`). */
export const dashboardAuditOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/audit',
  permission: 'audit',
  async handle({ caller: { viewer }, query }, deps) {
    const q = querySchema.safeParse(query);
    if (!q.success)
      return new HtmlPage(400, auditPage(viewer, { records: [], olderHref: null, error: 'before must be an ISO 8601 instant.' }));
    const found = await deps.useCases.dashboard.listAudit({
      merchantIdentifier: viewer.merchantIdentifier,
      ...(q.data.before ? { before: new Date(q.data.before) } : {}),
      limit: PAGE_SIZE + 1,
    });
    let records = found.slice(0, PAGE_SIZE);
    // The next page starts before the last record shown: records sharing the boundary's instant
    // are left to the next page together, so none falls between two pages.
    const boundary = found.length > PAGE_SIZE ? found[PAGE_SIZE].at : null;
    if (boundary !== null && records.some((r) => r.at !== boundary)) records = records.filter((r) => r.at !== boundary);
    const olderHref = boundary !== null ? `/dashboard/audit?before=${encodeURIComponent(records[records.length - 1].at)}` : null;
    return new HtmlPage(200, auditPage(viewer, { records, olderHref }));
  },
});
