import type { AuditAction, AuditActor, AuditDetail, AuditQuery, AuditRecord, AuditRecordView } from '../domain/audit';
import type { AuditRepository } from '../store/audit-repository';

/** An audit record as the ops API, the CLI and the dashboard show it. */
// The store may drop a null field written by an upsert (the embedded store does): absent reads as null.
export const auditView = (r: AuditRecord & { id: string }): AuditRecordView => ({
  ...r,
  merchantIdentifier: r.merchantIdentifier ?? null,
  at: r.at.toISOString(),
});

/**
 * The one way to record and read the audit trail. A use case records after its change is stored,
 * so a record never names a change that did not happen; a crash between the two loses that one
 * record, never money (the change itself is idempotent and logged).
 */
export function auditTrail(records: AuditRepository, now: () => Date) {
  return {
    record: (
      action: AuditAction,
      actor: AuditActor,
      o: { merchantIdentifier: string | null; from: string | null; detail?: AuditDetail },
    ) =>
      records.record({
        action,
        actor,
        merchantIdentifier: o.merchantIdentifier,
        at: now(),
        from: o.from,
        detail: o.detail ?? {},
      }),
    list: async (o: AuditQuery) => (await records.list(o)).map(auditView),
  };
}
export type AuditTrail = ReturnType<typeof auditTrail>;
