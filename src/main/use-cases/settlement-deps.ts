import type { Db } from 'mongodb';
import { AuditRepository } from '../../store/audit-repository';
import { SettlementAccountRepository } from '../../store/settlement-account-repository';
import { SettlementAttentionRepository } from '../../store/settlement-attention-repository';
import { SettlementRepository } from '../../store/settlement-repository';
import { SettlementSettingsRepository } from '../../store/settlement-settings-repository';
import { auditTrail, type AuditTrail } from '../../usecases/audit-trail';
import type { SettlementAccountDeps } from '../../usecases/settlement-account';
import type { Runtime } from '../runtime';

/** The settlement use cases' repositories over one store (operations, needs attention, waking held settlements). */
export function settlementRepositories(db: Db) {
  return {
    settlements: new SettlementRepository(db),
    attention: new SettlementAttentionRepository(db),
    settings: new SettlementSettingsRepository(db),
  };
}

/** The settlement-account use cases' dependencies, over the runtime's store, or the audit trail given. */
export function settlementAccountDeps(
  rt: Pick<Runtime, 'store' | 'config' | 'temporal' | 'now'>,
  audit: AuditTrail = auditTrail(new AuditRepository(rt.store.db), rt.now),
): SettlementAccountDeps {
  return {
    accounts: new SettlementAccountRepository(rt.store.db, rt.config.secrets.masterKey),
    audit,
    settlements: new SettlementRepository(rt.store.db),
    config: rt.config,
    temporal: rt.temporal,
    now: rt.now,
  };
}
