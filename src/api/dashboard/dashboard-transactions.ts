import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import { istDate } from '../../domain/ist-time';
import { formatRupees, rupeesToPaise } from '../../domain/money';
import { refundablePaise } from '../../domain/refund';
import type { Transaction } from '../../domain/transaction';
import { transactionKindFilter } from '../../domain/transaction-kind';
import { istDay } from '../../domain/report-range';
import { orderSettlementState } from '../pages/dashboard-settlements-page';
import type { ApiDeps } from '../deps';
import { notFoundAnswer } from '../middleware/dashboard-session';
import { HtmlPage, Redirect } from '../operation';
import {
  orderPath,
  transactionDetailPage,
  transactionSearchPage,
  type SearchFormValues,
} from '../pages/dashboard-transactions-page';
import { formProblem } from '../schemas/dashboard';
import { dashboardOperation, type DashboardRequest } from './dashboard-operation';
import { staffAudit } from './staff-audit';
import {
  decodeCursor,
  encodeCursor,
  MAX_SEARCH_DAYS,
  refundFormSchema,
  SEARCH_PAGE_SIZE,
  transactionSearchSchema,
} from '../schemas/dashboard-transactions';

const DAY_MS = 86_400_000;

/** Temporal UI's page of a workflow, where there is a Temporal UI to link. */
function workflowUrl(config: Config, id: string): string | null {
  const base = config.dashboard.temporalUiUrl;
  if (!base) return null;
  return `${base}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(id)}`;
}

/** The transactions page: a search, page by page. */
export const transactionSearchOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/transactions',
  async handle({ caller: { viewer }, query }, deps) {
    const today = istDate(deps.now());
    const parsed = transactionSearchSchema.safeParse(query);
    const raw = query as Record<string, string | undefined>;
    const shown: SearchFormValues = { ...pick(raw), from: raw.from || today, to: raw.to || today };
    const refuse = (error: string) => new HtmlPage(400, transactionSearchPage(viewer, shown, [], { error }));
    if (!parsed.success) return refuse(formProblem(parsed.error));
    const q = parsed.data;
    const merchantIdentifier = viewer.merchantIdentifier;

    // An orderId or txnId names one order: a primary-key or txnId_unique read, the period aside.
    if (q.orderId || q.txnId) {
      const t = q.orderId
        ? await deps.useCases.dashboard.findOrder(merchantIdentifier, q.orderId)
        : await deps.useCases.dashboard.findByTxnId(merchantIdentifier, q.txnId!);
      const match = t && (!q.txnId || t.txnId === q.txnId) ? [t] : [];
      return new HtmlPage(200, transactionSearchPage(viewer, shown, match, {}));
    }

    const from = istDay(shown.from);
    const to = istDay(shown.to);
    if (!from || !to) return refuse('from and to must be real dates.');
    if (from.from > to.from) return refuse('The period starts after it ends.');
    if ((to.until.getTime() - from.from.getTime()) / DAY_MS > MAX_SEARCH_DAYS)
      return refuse(`Search at most ${MAX_SEARCH_DAYS} days at once.`);
    const rows = await deps.useCases.dashboard.searchTransactions({
      merchantIdentifier,
      from: from.from,
      until: to.until,
      ...(q.after ? { after: decodeCursor(q.after) } : {}),
      where: [...(q.status ? [{ status: q.status }] : []), ...(q.kind ? [transactionKindFilter(q.kind)] : [])],
      limit: SEARCH_PAGE_SIZE + 1,
    });
    const page = rows.slice(0, SEARCH_PAGE_SIZE);
    const nextHref =
      rows.length > SEARCH_PAGE_SIZE
        ? `/dashboard/transactions?${new URLSearchParams({ ...definedOnly(shown), after: encodeCursor(page.at(-1)!) }).toString()}`
        : undefined;
    return new HtmlPage(200, transactionSearchPage(viewer, shown, page, nextHref ? { nextHref } : {}));
  },
});

/** The order named in the address, only if it is this merchant's. */
const orderOf = (r: DashboardRequest, deps: ApiDeps) =>
  deps.useCases.dashboard.findOrder(r.caller.viewer.merchantIdentifier, r.params.orderId);

/** The order's page, with a notice or an error. */
async function showOrder(
  r: DashboardRequest,
  deps: ApiDeps,
  t: Transaction,
  status: number,
  o: { notice?: string; error?: string } = {},
): Promise<HtmlPage> {
  const uc = deps.useCases.dashboard;
  const [delivery, sale] = await Promise.all([
    uc.orderRealtimeDelivery(t),
    t.successAt ? uc.settlementOfSale(t.merchantIdentifier, t.txnId) : null,
  ]);
  return new HtmlPage(
    status,
    transactionDetailPage(r.caller.viewer, t, {
      deliveries: delivery ? [delivery] : [],
      workflowUrl: workflowUrl(deps.config, uc.workflowIdOf(t)),
      refundId: `dash${randomBytes(8).toString('hex')}`,
      settlement: orderSettlementState(t.successAt !== null, sale),
      ...o,
    }),
  );
}

/** One order's page. */
export const orderPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/transactions/:orderId',
  async handle(r, deps) {
    const t = await orderOf(r, deps);
    if (!t) return notFoundAnswer();
    return showOrder(r, deps, t, 200, r.query.done === 'refund' ? { notice: 'Refund started; the bank answers shortly.' } : {});
  },
});

/** A refund from the order's page, whoever may move money. */
export const orderRefundOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/transactions/:orderId/refunds',
  permission: 'payments',
  async handle(r, deps) {
    const t = await orderOf(r, deps);
    if (!t) return notFoundAnswer();
    const parsed = refundFormSchema.safeParse(r.body);
    if (!parsed.success) return showOrder(r, deps, t, 400, { error: `${formProblem(parsed.error)}. Nothing was refunded.` });
    const f = parsed.data;
    const amountPaise = f.updateDesired === '22' ? rupeesToPaise(Number(f.amount)) : undefined;
    if (amountPaise === null || amountPaise === 0)
      return showOrder(r, deps, t, 400, { error: 'The amount must be more than ₹0.00. Nothing was refunded.' });
    const result = await deps.useCases.dashboard.startRefund({
      merchantIdentifier: t.merchantIdentifier,
      orderId: t.orderId,
      updateDesired: f.updateDesired,
      amountPaise,
      merchantRefId: f.refundId,
      updateReason: f.reason,
    });
    if (result.response === 'fullRefundInitiated' || result.response === 'partialRefundInitiated') {
      await staffAudit(deps)(r, 'refund.requested', {
        orderId: t.orderId,
        updateDesired: f.updateDesired,
        amountPaise: amountPaise ?? null,
        merchantRefId: f.refundId,
        reason: f.reason,
      });
      return new Redirect(`${orderPath(t.orderId)}?done=refund`);
    }
    const now = (await orderOf(r, deps)) ?? t;
    const error =
      result.response === 'cannotRefund'
        ? `That is more than what remains to refund (${formatRupees(refundablePaise(now))}). Nothing was refunded.`
        : result.response === 'refIdReused'
          ? 'This form was sent before with other values. Reload the page and try again; nothing was refunded.'
          : 'This order was not paid, so it cannot be refunded. Nothing was refunded.';
    return showOrder(r, deps, now, 409, { error });
  },
});

/**
 * The merchant's transactions: a search (orderId, txnId, or a period with status and kind, paged by
 * a keyset cursor on merchant_created), an order's page with its timeline, and refunds from it
 * through the one refund use case (`/updateTxn`'s). Only the signed-in user's merchant is read:
 * another merchant's orderId is 404.
 */
export const transactionOperations = [transactionSearchOperation, orderPageOperation, orderRefundOperation];

const SEARCH_FIELDS = ['orderId', 'txnId', 'status', 'kind'] as const;
function pick(raw: Record<string, string | undefined>): Partial<SearchFormValues> {
  return Object.fromEntries(SEARCH_FIELDS.filter((k) => typeof raw[k] === 'string').map((k) => [k, raw[k]]));
}
function definedOnly(v: SearchFormValues): Record<string, string> {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string' && x !== ''));
}
