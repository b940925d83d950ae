import { randomBytes } from 'node:crypto';
import { istDate, istStartOfDay } from '../../domain/ist-time';
import { HtmlPage, type QueryParameters } from '../operation';
import { linksPage } from '../pages/dashboard-links-page';
import { formProblem } from '../schemas/dashboard';
import { linkFormSchema, listPeriod } from '../schemas/dashboard-lists';
import { checkPaymentLinkEntry } from '../schemas/payment-links';
import { dashboardOperation, type DashboardRequest } from './dashboard-operation';
import type { ApiDeps } from '../deps';

const LINKS_SHOWN = 200;
const DAY_MS = 86_400_000;

/**
 * The link API's linkExpireBy (`dd/MM/yyyy HH:mm:ss`, IST): the end of the IST day `days` after
 * today. Whole days, so the same form sent twice in a day is the same request (its batchId then
 * answers the first link, never a second one).
 */
function linkExpireByText(now: Date, days: number): string {
  const lastDay = new Date(istStartOfDay(now).getTime() + days * DAY_MS);
  const [y, m, d] = istDate(lastDay).split('-');
  return `${d}/${m}/${y} 23:59:59`;
}

/** The links page, with the link just created or an error: of the period `query` asks (the GET's), else of the default one. */
async function show(
  r: DashboardRequest,
  deps: ApiDeps,
  status: number,
  o: { created?: string; error?: string } = {},
  query: QueryParameters = {},
): Promise<HtmlPage> {
  const { viewer } = r.caller;
  const now = deps.now();
  const period = listPeriod(o.created ? {} : query, now, 7);
  const batchId = `dash-${randomBytes(8).toString('hex')}`;
  const base = { from: period.fromText, to: period.toText, now, batchId, ...o };
  if (!period.ok) return new HtmlPage(400, linksPage(viewer, { ...base, rows: [], more: false, error: period.problem }));
  const links = await deps.useCases.dashboard.paymentLinksCreatedBetween(
    viewer.merchantIdentifier,
    period.from,
    period.until,
    LINKS_SHOWN + 1,
  );
  const shown = links.slice(0, LINKS_SHOWN);
  const orders = await deps.useCases.dashboard.findOrders(
    viewer.merchantIdentifier,
    shown.map((l) => l.orderId),
  );
  const byOrder = new Map(orders.map((t) => [t.orderId, t]));
  const rows = shown.map((link) => ({
    link,
    url: deps.useCases.dashboard.linkUrl(link._id),
    order: byOrder.get(link.orderId),
  }));
  return new HtmlPage(status, linksPage(viewer, { ...base, rows, more: links.length > LINKS_SHOWN }));
}

/**
 * Payment links: the merchant's links of a period with their orders' status (links by
 * merchant_created of payment_links, their orders in one primary-key read), and one link created
 * through the link API's use case and checks (whoever may move money).
 */
export const linksPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/links',
  handle: (r, deps) => show(r, deps, 200, {}, r.query),
});

export const createLinkOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/links',
  permission: 'payments',
  async handle(r, deps) {
    const { viewer } = r.caller;
    const form = r.body;
    const parsed = linkFormSchema.safeParse(form);
    if (!parsed.success) return show(r, deps, 400, { error: `${formProblem(parsed.error)}. No link was created.` });
    const f = parsed.data;
    const now = deps.now();
    const raw = {
      orderId: f.orderId,
      // A number, as the API takes it; anything else goes as sent, and the API's check names it.
      amount: /^\d{1,7}(\.\d{1,2})?$/.test(f.amount) ? Number(f.amount) : f.amount,
      productDescription: f.productDescription,
      ...(f.customerEmail ? { customerEmail: f.customerEmail } : {}),
      linkExpireBy: linkExpireByText(now, Number(f.validDays)),
    };
    const merchant = (await deps.useCases.dashboard.findMerchant(viewer.merchantIdentifier))!;
    const [result] = await deps.useCases.dashboard.createPaymentLinks(
      merchant,
      f.batchId,
      [checkPaymentLinkEntry(raw, now)],
      r.ip,
    );
    const link = result?.link;
    if (typeof link !== 'string')
      return show(r, deps, 400, {
        error: `${String(result?.errorDescription ?? 'The link could not be created.')} No link was created.`,
      });
    return show(r, deps, 201, { created: link });
  },
});

export const linkOperations = [linksPageOperation, createLinkOperation];
