import type { Context } from 'koa';
import type { AuditAction, AuditDetail } from '../../domain/audit';
import type { ApiDeps } from '../deps';
import { dashboardState } from '../middleware/dashboard-session';

/**
 * Records a dashboard change in the audit trail: the signed-in staff member, their merchant and the
 * request's client address. Called after the change is stored; `detail` never holds a secret.
 */
export function staffAudit(deps: Pick<ApiDeps, 'useCases'>) {
  const uc = deps.useCases.dashboard;
  return (ctx: Context, action: AuditAction, detail: AuditDetail = {}) => {
    const { user, viewer } = dashboardState(ctx);
    return uc.recordAudit(
      action,
      { kind: 'staff', email: user.email },
      { merchantIdentifier: viewer.merchantIdentifier, from: ctx.ip || null, detail },
    );
  };
}
