import Router from '@koa/router';
import type { Context } from 'koa';
import { SETTLEMENT_REPORT_COLUMNS, toSignedReportLine } from '../../domain/settlement-report';
import { isCooling } from '../../domain/settlement-account';
import { respondWithCsv } from '../csv-stream';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import {
  dashboardSession,
  dashboardState,
  notFoundPage,
  requirePermission,
  signedInRequest,
} from '../middleware/dashboard-session';
import { accountChangeNotice, bankAccountPage, settlementDetailPage, settlementsPage } from '../pages/dashboard-settlements-page';
import { formProblem } from '../schemas/dashboard';
import { settlementAccountSchema } from '../schemas/settlement-merchant';
import { passwordRecheck } from './password-recheck';

const LISTED = 100;
const LINES_SHOWN = 500;
/** How long the settlements page shows every user the account's last change (the bank account page always does). */
const NOTICE_DAYS = 7;

/**
 * Settlements (read only for every role): the latest settlements, one settlement's lines and their
 * CSV download (Zaakpay's report columns, formula-neutralised by the CSV helper), and the
 * settlement bank account, which only owners see and change, with their password (the ops API's use case).
 */
export function dashboardSettlementRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard/settlements' });
  router.use(dashboardSession(deps));
  const uc = deps.useCases.dashboard;
  const recheck = passwordRecheck(deps);
  const mid = (ctx: Context) => dashboardState(ctx).viewer.merchantIdentifier;
  const mayManage = requirePermission('settlementAccount');

  router.get('/', async (ctx) => {
    const { viewer } = dashboardState(ctx);
    const found = await uc.latestSettlements(mid(ctx), LISTED + 1);
    // Every role sees a recent change of the account here, where they look for their money: an owner
    // demoted by a stolen session must still see where the money goes now.
    const account = await uc.maskedSettlementAccount(mid(ctx));
    const recent = account && deps.now().getTime() - account.updatedAt.getTime() < NOTICE_DAYS * 86_400_000;
    const notice = recent || isCooling(account?.coolingUntil, deps.now()) ? accountChangeNotice(account, deps.now()) : null;
    sendPage(ctx, 200, settlementsPage(viewer, found.slice(0, LISTED), found.length > LISTED, notice));
  });

  const showAccount = async (ctx: Context, status: number, o: Parameters<typeof bankAccountPage>[4] = {}) => {
    const [account, pending] = [await uc.maskedSettlementAccount(mid(ctx)), await uc.pendingSettlementAccount(mid(ctx))];
    sendPage(ctx, status, bankAccountPage(dashboardState(ctx).viewer, account, pending, deps.now(), o));
  };

  router.get('/account', mayManage, (ctx) =>
    showAccount(ctx, 200, ctx.query.done === 'saved' ? { notice: 'Bank account saved.' } : {}),
  );

  // A change needs the owner's password again: a session alone (a borrowed laptop, a stolen cookie)
  // cannot send the money elsewhere. Wrong passwords count against the sign-in limits.
  router.post('/account', mayManage, async (ctx) => {
    const { form, user } = dashboardState(ctx);
    const { password, ...fields } = form;
    const values = { ifsc: form.ifsc ?? '', holderName: form.holderName ?? '' };
    const parsed = settlementAccountSchema.safeParse({
      ...fields,
      ...(typeof form.ifsc === 'string' ? { ifsc: form.ifsc.trim().toUpperCase() } : {}),
      ...(typeof form.accountNumber === 'string' ? { accountNumber: form.accountNumber.replace(/\s/g, '') } : {}),
      ...(typeof form.holderName === 'string' ? { holderName: form.holderName.trim() } : {}),
    });
    if (!parsed.success) return showAccount(ctx, 400, { error: `${formProblem(parsed.error)}. Nothing was changed.`, values });
    const refused = await recheck(
      signedInRequest(ctx),
      typeof password === 'string' ? password : undefined,
      'change the account',
    );
    if (refused) {
      ctx.set(refused.headers);
      return showAccount(ctx, refused.status, { error: refused.error, values });
    }
    await uc.changeSettlementAccount(mid(ctx), parsed.data, {
      actor: { kind: 'staff', email: user.email },
      from: ctx.ip || null,
    });
    deps.logger.info({ merchantIdentifier: mid(ctx), by: user.email }, 'settlement account set');
    ctx.status = 303;
    ctx.redirect('/dashboard/settlements/account?done=saved');
  });

  router.get('/:settlementId', async (ctx) => {
    const s = await uc.findSettlement(mid(ctx), ctx.params.settlementId);
    if (!s) return notFoundPage(ctx);
    const lines = await uc.settlementLines(mid(ctx), s._id, LINES_SHOWN + 1);
    sendPage(
      ctx,
      200,
      settlementDetailPage(dashboardState(ctx).viewer, s, lines.slice(0, LINES_SHOWN), lines.length > LINES_SHOWN),
    );
  });

  router.get('/:settlementId/lines.csv', async (ctx) => {
    const s = await uc.findSettlement(mid(ctx), ctx.params.settlementId);
    if (!s) return notFoundPage(ctx);
    await respondWithCsv(ctx, uc.settlementLinesCursor(mid(ctx), s._id), {
      filename: `settlement-${s.settlementDate}.csv`,
      columns: SETTLEMENT_REPORT_COLUMNS,
      record: (l) => toSignedReportLine(l, s.utr ?? null),
    });
  });
  return router;
}
