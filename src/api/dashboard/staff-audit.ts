import type { Context } from 'koa';
import type { AuditAction, AuditDetail } from '../../domain/audit';
import { auditTrail } from '../../usecases/audit-trail';
import type { ApiDeps } from '../deps';
import { dashboardState } from '../middleware/dashboard-session';

/**
 * Records a dashboard change in the audit trail: the signed-in staff member, their merchant and the
 * request's client address. Called after the change is stored; `detail` never holds a secret.
 */
export function staffAudit(deps: Pick<ApiDeps, 'store' | 'now'>) {
  const trail = auditTrail(deps.store.db, deps.now);
  return (ctx: Context, action: AuditAction, detail: AuditDetail = {}) => {
    const { user, viewer } = dashboardState(ctx);
    return trail.record(
      action,
      { kind: 'staff', email: user.email },
      { merchantIdentifier: viewer.merchantIdentifier, from: ctx.ip || null, detail },
    );
  };
}
