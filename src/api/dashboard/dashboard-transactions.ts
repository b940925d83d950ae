import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../../config';
import { istDate } from '../../domain/ist-time';
import { formatRupees, rupeesToPaise } from '../../domain/money';
import { refundablePaise } from '../../domain/refund';
import type { Transaction } from '../../domain/transaction';
import { transactionKindFilter } from '../../domain/transaction-kind';
import { istDay } from '../../domain/report-range';
import { orderSettlementState } from '../pages/dashboard-settlements-page';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import {
  dashboardSession,
  dashboardState,
  notFoundPage,
  requirePermission,
  signedInRequest,
} from '../middleware/dashboard-session';
import {
  orderPath,
  transactionDetailPage,
  transactionSearchPage,
  type SearchFormValues,
} from '../pages/dashboard-transactions-page';
import { formProblem } from '../schemas/dashboard';
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

/** Temporal UI's page of a workflow: TEMPORAL_UI_URL, or the local dev server's UI when npm start runs it. */
export function temporalUiBase(config: {
  temporal: Pick<Config['temporal'], 'uiUrl' | 'address'>;
  devStack: Pick<Config['devStack'], 'temporalUiPort'>;
}): string | null {
  if (config.temporal.uiUrl) return config.temporal.uiUrl;
  return config.temporal.address ? null : `http://localhost:${config.devStack.temporalUiPort}`;
}

function workflowUrl(config: Config, id: string): string | null {
  const base = temporalUiBase(config);
  if (!base) return null;
  return `${base}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(id)}`;
}

/**
 * The merchant's transactions: a search (orderId, txnId, or a period with status and kind, paged by
 * a keyset cursor on merchant_created), an order's page with its timeline, and refunds from it
 * through the one refund use case (`/updateTxn`'s). Only the signed-in user's merchant is read:
 * another merchant's orderId is 404.
 */
export function dashboardTransactionRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard/transactions' });
  router.use(dashboardSession(deps));
  const kit = transactionPageKit(deps);
  transactionSearchRoute(router, deps);
  orderRoutes(router, deps, kit);
  return router;
}

/** The transactions page: a search, page by page. */
function transactionSearchRoute(router: Router, deps: ApiDeps): void {
  router.get('/', async (ctx) => {
    const { viewer } = dashboardState(ctx);
    const today = istDate(deps.now());
    const parsed = transactionSearchSchema.safeParse(ctx.query);
    const raw = ctx.query as Record<string, string | undefined>;
    const shown: SearchFormValues = { ...pick(raw), from: raw.from || today, to: raw.to || today };
    const refuse = (error: string) => sendPage(ctx, 400, transactionSearchPage(viewer, shown, [], { error }));
    if (!parsed.success) return refuse(formProblem(parsed.error));
    const q = parsed.data;
    const merchantIdentifier = viewer.merchantIdentifier;

    // An orderId or txnId names one order: a primary-key or txnId_unique read, the period aside.
    if (q.orderId || q.txnId) {
      const t = q.orderId
        ? await deps.useCases.dashboard.findOrder(merchantIdentifier, q.orderId)
        : await deps.useCases.dashboard.findByTxnId(merchantIdentifier, q.txnId!);
      const match = t && (!q.txnId || t.txnId === q.txnId) ? [t] : [];
      return sendPage(ctx, 200, transactionSearchPage(viewer, shown, match, {}));
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
    sendPage(ctx, 200, transactionSearchPage(viewer, shown, page, nextHref ? { nextHref } : {}));
  });
}

/** One order's page, and a refund from it. */
function orderRoutes(router: Router, deps: ApiDeps, kit: TransactionPageKit): void {
  const { audit, orderOf, showOrder } = kit;
  router.get('/:orderId', async (ctx) => {
    const t = await orderOf(ctx);
    if (!t) return notFoundPage(ctx);
    await showOrder(ctx, t, 200, ctx.query.done === 'refund' ? { notice: 'Refund started; the bank answers shortly.' } : {});
  });

  router.post('/:orderId/refunds', requirePermission('payments'), async (ctx) => {
    const t = await orderOf(ctx);
    if (!t) return notFoundPage(ctx);
    const parsed = refundFormSchema.safeParse(dashboardState(ctx).form);
    if (!parsed.success) return showOrder(ctx, t, 400, { error: `${formProblem(parsed.error)}. Nothing was refunded.` });
    const f = parsed.data;
    const amountPaise = f.updateDesired === '22' ? rupeesToPaise(Number(f.amount)) : undefined;
    if (amountPaise === null || amountPaise === 0)
      return showOrder(ctx, t, 400, { error: 'The amount must be more than ₹0.00. Nothing was refunded.' });
    const result = await deps.useCases.dashboard.startRefund({
      merchantIdentifier: t.merchantIdentifier,
      orderId: t.orderId,
      updateDesired: f.updateDesired,
      amountPaise,
      merchantRefId: f.refundId,
      updateReason: f.reason,
    });
    if (result.response === 'fullRefundInitiated' || result.response === 'partialRefundInitiated') {
      await audit(signedInRequest(ctx), 'refund.requested', {
        orderId: t.orderId,
        updateDesired: f.updateDesired,
        amountPaise: amountPaise ?? null,
        merchantRefId: f.refundId,
        reason: f.reason,
      });
      ctx.status = 303;
      return ctx.redirect(`${orderPath(t.orderId)}?done=refund`);
    }
    const now = (await orderOf(ctx)) ?? t;
    const error =
      result.response === 'cannotRefund'
        ? `That is more than what remains to refund (${formatRupees(refundablePaise(now))}). Nothing was refunded.`
        : result.response === 'refIdReused'
          ? 'This form was sent before with other values. Reload the page and try again; nothing was refunded.'
          : 'This order was not paid, so it cannot be refunded. Nothing was refunded.';
    await showOrder(ctx, now, 409, { error });
  });
}

/** What the transaction routes share: the audit, the settlements read, the order named and its page. */
function transactionPageKit(deps: ApiDeps) {
  const audit = staffAudit(deps);
  const uc = deps.useCases.dashboard;

  /** The order named in the address, only if it is this merchant's. */
  const orderOf = (ctx: Context) =>
    uc.findOrder(dashboardState(ctx).viewer.merchantIdentifier, (ctx.params as Record<string, string>).orderId);

  const showOrder = async (ctx: Context, t: Transaction, status: number, o: { notice?: string; error?: string } = {}) => {
    const [delivery, sale] = await Promise.all([
      uc.orderRealtimeDelivery(t),
      t.successAt ? uc.settlementOfSale(t.merchantIdentifier, t.txnId) : null,
    ]);
    sendPage(
      ctx,
      status,
      transactionDetailPage(dashboardState(ctx).viewer, t, {
        deliveries: delivery ? [delivery] : [],
        workflowUrl: workflowUrl(deps.config, uc.workflowIdOf(t)),
        refundId: `dash${randomBytes(8).toString('hex')}`,
        settlement: orderSettlementState(t.successAt !== null, sale),
        ...o,
      }),
    );
  };
  return { audit, orderOf, showOrder };
}

type TransactionPageKit = ReturnType<typeof transactionPageKit>;

const SEARCH_FIELDS = ['orderId', 'txnId', 'status', 'kind'] as const;
function pick(raw: Record<string, string | undefined>): Partial<SearchFormValues> {
  return Object.fromEntries(SEARCH_FIELDS.filter((k) => typeof raw[k] === 'string').map((k) => [k, raw[k]]));
}
function definedOnly(v: SearchFormValues): Record<string, string> {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string' && x !== ''));
}
