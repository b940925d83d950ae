import type { AuditAction, AuditActor, AuditDetail } from '../../domain/audit';
import { auditTrail } from '../../usecases/audit-trail';
import type { OperatorIdentity } from '../../usecases/operator-tokens';
import type { ApiDeps } from '../deps';
import { perApp } from '../operation';

/** The operator behind an ops request, as the audit trail names it: its token's name. */
export const operatorActor = (operator: { name: string }): AuditActor => ({ kind: 'operator', name: operator.name });

/** The audit trail of an app's operator operations. */
export const operatorTrail = perApp((deps) => auditTrail(deps.store.db, deps.now));

/** Records an operator's change once it is stored: the operator, the merchant concerned, the request's address. */
export function recordByOperator(
  deps: ApiDeps,
  request: { caller: OperatorIdentity; ip: string | null },
  action: AuditAction,
  merchantIdentifier: string | null,
  detail?: AuditDetail,
): Promise<unknown> {
  return operatorTrail(deps).record(action, operatorActor(request.caller), {
    merchantIdentifier,
    from: request.ip,
    ...(detail ? { detail } : {}),
  });
}
