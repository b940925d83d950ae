import type { AuditAction, AuditActor, AuditDetail } from '../../domain/audit';
import type { OperatorIdentity } from '../../domain/operator-token';
import type { ApiDeps } from '../deps';

/** The operator behind an ops request, as the audit trail names it: its token's name. */
export const operatorActor = (operator: { name: string }): AuditActor => ({ kind: 'operator', name: operator.name });

/** Records an operator's change once it is stored: the operator, the merchant concerned, the request's address. */
export function recordByOperator(
  deps: Pick<ApiDeps, 'useCases'>,
  request: { caller: OperatorIdentity; ip: string | null },
  action: AuditAction,
  merchantIdentifier: string | null,
  detail?: AuditDetail,
): Promise<unknown> {
  return deps.useCases.ops.recordAudit(action, operatorActor(request.caller), {
    merchantIdentifier,
    from: request.ip,
    ...(detail ? { detail } : {}),
  });
}
