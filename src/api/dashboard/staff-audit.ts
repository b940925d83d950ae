import type { AuditAction, AuditDetail } from '../../domain/audit';
import type { ApiDeps } from '../deps';
import type { DashboardState } from '../middleware/dashboard-session';

/**
 * Records a dashboard change in the audit trail: the signed-in staff member, their merchant and the
 * request's client address. Called after the change is stored; `detail` never holds a secret.
 */
export function staffAudit(deps: Pick<ApiDeps, 'useCases'>) {
  const uc = deps.useCases.dashboard;
  return ({ caller, ip }: { caller: DashboardState; ip: string | null }, action: AuditAction, detail: AuditDetail = {}) =>
    uc.recordAudit(
      action,
      { kind: 'staff', email: caller.user.email },
      { merchantIdentifier: caller.viewer.merchantIdentifier, from: ip, detail },
    );
}
