import Router from '@koa/router';
import type { Context } from 'koa';
import { SETTLEMENT_REPORT_COLUMNS, toSignedReportLine } from '../../domain/settlement-report';
import { settlementReads } from '../../usecases/read-settlements';
import { settlementAccountUseCases } from '../../usecases/settlement-account';
import { respondWithCsv } from '../csv-stream';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import { dashboardSession, dashboardState, notFoundPage, requirePermission } from '../middleware/dashboard-session';
import { bankAccountPage, settlementDetailPage, settlementsPage } from '../pages/dashboard-settlements-page';
import { formProblem } from '../schemas/dashboard';
import { settlementAccountSchema } from '../schemas/settlement-merchant';

const LISTED = 100;
const LINES_SHOWN = 500;

/**
 * Settlements (read only for every role): the latest settlements, one settlement's lines and their
 * CSV download (Zaakpay's report columns, formula-neutralised by the CSV helper), and the
 * settlement bank account, which only owners see and change (the ops API's use case).
 */
export function dashboardSettlementRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard/settlements' });
  router.use(dashboardSession(deps));
  const reads = settlementReads(deps.store.db);
  const accounts = settlementAccountUseCases(deps.store.db, deps.config.MASTER_KEY);
  const mid = (ctx: Context) => dashboardState(ctx).viewer.merchantIdentifier;
  const mayManage = requirePermission('settlementAccount');

  router.get('/', async (ctx) => {
    const found = await reads.latest(mid(ctx), LISTED + 1);
    sendPage(ctx, 200, settlementsPage(dashboardState(ctx).viewer, found.slice(0, LISTED), found.length > LISTED));
  });

  const showAccount = async (ctx: Context, status: number, o: Parameters<typeof bankAccountPage>[2] = {}) =>
    sendPage(ctx, status, bankAccountPage(dashboardState(ctx).viewer, await accounts.masked(mid(ctx)), o));

  router.get('/account', mayManage, (ctx) =>
    showAccount(ctx, 200, ctx.query.done === 'saved' ? { notice: 'Bank account saved.' } : {}),
  );

  router.post('/account', mayManage, async (ctx) => {
    const form = dashboardState(ctx).form;
    const parsed = settlementAccountSchema.safeParse({
      ...form,
      ...(typeof form.ifsc === 'string' ? { ifsc: form.ifsc.trim().toUpperCase() } : {}),
      ...(typeof form.accountNumber === 'string' ? { accountNumber: form.accountNumber.replace(/\s/g, '') } : {}),
      ...(typeof form.holderName === 'string' ? { holderName: form.holderName.trim() } : {}),
    });
    if (!parsed.success)
      return showAccount(ctx, 400, {
        error: `${formProblem(parsed.error)}. Nothing was changed.`,
        values: { ifsc: form.ifsc ?? '', holderName: form.holderName ?? '' },
      });
    await accounts.set(mid(ctx), parsed.data, deps.now());
    deps.logger.info({ merchantIdentifier: mid(ctx), by: dashboardState(ctx).user.email }, 'settlement account set');
    ctx.status = 303;
    ctx.redirect('/dashboard/settlements/account?done=saved');
  });

  router.get('/:settlementId', async (ctx) => {
    const s = await reads.find(mid(ctx), ctx.params.settlementId!);
    if (!s) return notFoundPage(ctx);
    const lines = await reads
      .linesOf(mid(ctx), s._id)
      .limit(LINES_SHOWN + 1)
      .toArray();
    sendPage(
      ctx,
      200,
      settlementDetailPage(dashboardState(ctx).viewer, s, lines.slice(0, LINES_SHOWN), lines.length > LINES_SHOWN),
    );
  });

  router.get('/:settlementId/lines.csv', async (ctx) => {
    const s = await reads.find(mid(ctx), ctx.params.settlementId!);
    if (!s) return notFoundPage(ctx);
    await respondWithCsv(ctx, reads.linesOf(mid(ctx), s._id), {
      filename: `settlement-${s.settlementDate}.csv`,
      columns: SETTLEMENT_REPORT_COLUMNS,
      record: (l) => toSignedReportLine(l, s.utr ?? null),
    });
  });
  return router;
}
