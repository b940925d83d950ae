import { SETTLEMENT_REPORT_COLUMNS, toSignedReportLine } from '../../domain/settlement-report';
import { isCooling } from '../../domain/settlement-account';
import type { ApiDeps } from '../deps';
import { notFoundAnswer } from '../middleware/dashboard-session';
import { CsvDownload, HtmlPage, Redirect } from '../operation';
import { accountChangeNotice, bankAccountPage, settlementDetailPage, settlementsPage } from '../pages/dashboard-settlements-page';
import { formProblem } from '../schemas/dashboard';
import { settlementAccountSchema } from '../schemas/settlement-merchant';
import { dashboardOperation, type DashboardRequest } from './dashboard-operation';
import { passwordRecheck } from './password-recheck';

const LISTED = 100;
const LINES_SHOWN = 500;
/** How long the settlements page shows every user the account's last change (the bank account page always does). */
const NOTICE_DAYS = 7;

const mid = (r: DashboardRequest) => r.caller.viewer.merchantIdentifier;

/**
 * Settlements (read only for every role): the latest settlements, one settlement's lines and their
 * CSV download (Zaakpay's report columns, formula-neutralised by the CSV helper), and the
 * settlement bank account, which only owners see and change, with their password (the ops API's use case).
 */
export const settlementsPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/settlements',
  async handle(r, deps) {
    const uc = deps.useCases.dashboard;
    const found = await uc.latestSettlements(mid(r), LISTED + 1);
    // Every role sees a recent change of the account here, where they look for their money: an owner
    // demoted by a stolen session must still see where the money goes now.
    const account = await uc.maskedSettlementAccount(mid(r));
    const recent = account && deps.now().getTime() - account.updatedAt.getTime() < NOTICE_DAYS * 86_400_000;
    const notice = recent || isCooling(account?.coolingUntil, deps.now()) ? accountChangeNotice(account, deps.now()) : null;
    return new HtmlPage(200, settlementsPage(r.caller.viewer, found.slice(0, LISTED), found.length > LISTED, notice));
  },
});

/** The bank account page, with a notice, an error and the values sent. */
async function showAccount(
  r: DashboardRequest,
  deps: ApiDeps,
  status: number,
  o: Parameters<typeof bankAccountPage>[4] = {},
  headers: Record<string, string> = {},
): Promise<HtmlPage> {
  const uc = deps.useCases.dashboard;
  const [account, pending] = [await uc.maskedSettlementAccount(mid(r)), await uc.pendingSettlementAccount(mid(r))];
  return new HtmlPage(status, bankAccountPage(r.caller.viewer, account, pending, deps.now(), o), headers);
}

export const bankAccountPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/settlements/account',
  permission: 'settlementAccount',
  handle: (r, deps) => showAccount(r, deps, 200, r.query.done === 'saved' ? { notice: 'Bank account saved.' } : {}),
});

/**
 * A change needs the owner's password again: a session alone (a borrowed laptop, a stolen cookie)
 * cannot send the money elsewhere. Wrong passwords count against the sign-in limits.
 */
export const changeBankAccountOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/settlements/account',
  permission: 'settlementAccount',
  async handle(r, deps) {
    const { user } = r.caller;
    const form = r.body;
    const { password, ...fields } = form;
    const values = { ifsc: form.ifsc ?? '', holderName: form.holderName ?? '' };
    const parsed = settlementAccountSchema.safeParse({
      ...fields,
      ...(typeof form.ifsc === 'string' ? { ifsc: form.ifsc.trim().toUpperCase() } : {}),
      ...(typeof form.accountNumber === 'string' ? { accountNumber: form.accountNumber.replace(/\s/g, '') } : {}),
      ...(typeof form.holderName === 'string' ? { holderName: form.holderName.trim() } : {}),
    });
    if (!parsed.success)
      return showAccount(r, deps, 400, { error: `${formProblem(parsed.error)}. Nothing was changed.`, values });
    const refused = await passwordRecheck(deps)(r, typeof password === 'string' ? password : undefined, 'change the account');
    if (refused) return showAccount(r, deps, refused.status, { error: refused.error, values }, refused.headers);
    await deps.useCases.dashboard.changeSettlementAccount(mid(r), parsed.data, {
      actor: { kind: 'staff', email: user.email },
      from: r.ip,
    });
    deps.logger.info({ merchantIdentifier: mid(r), by: user.email }, 'settlement account set');
    return new Redirect('/dashboard/settlements/account?done=saved');
  },
});

export const settlementPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/settlements/:settlementId',
  async handle(r, deps) {
    const uc = deps.useCases.dashboard;
    const s = await uc.findSettlement(mid(r), r.params.settlementId);
    if (!s) return notFoundAnswer();
    const lines = await uc.settlementLines(mid(r), s._id, LINES_SHOWN + 1);
    return new HtmlPage(200, settlementDetailPage(r.caller.viewer, s, lines.slice(0, LINES_SHOWN), lines.length > LINES_SHOWN));
  },
});

export const settlementLinesCsvOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/settlements/:settlementId/lines.csv',
  async handle(r, deps) {
    const uc = deps.useCases.dashboard;
    const s = await uc.findSettlement(mid(r), r.params.settlementId);
    if (!s) return notFoundAnswer();
    return new CsvDownload(uc.settlementLinesCursor(mid(r), s._id), {
      filename: `settlement-${s.settlementDate}.csv`,
      columns: SETTLEMENT_REPORT_COLUMNS,
      record: (l) => toSignedReportLine(l, s.utr ?? null),
    });
  },
});

export const settlementOperations = [
  settlementsPageOperation,
  bankAccountPageOperation,
  changeBankAccountOperation,
  settlementPageOperation,
  settlementLinesCsvOperation,
];
