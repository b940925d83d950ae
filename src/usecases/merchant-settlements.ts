import type { Settlement } from '../domain/settlement';
import type { MerchantRepository } from '../store/merchant-repository';
import type { SettlementReadRepository } from '../store/settlement-read-repository';

export interface MerchantSettlementsDeps {
  merchants: Pick<MerchantRepository, 'findById'>;
  settlementReads: Pick<SettlementReadRepository, 'latest'>;
}

/**
 * A merchant's latest settlements as an operator reads them (the ops API, the CLI), newest
 * settlement date first, each as stored: its state, totals, carried balances, UTR and payout, and
 * why it waits or failed. Null for an unknown merchant, told apart from one never settled.
 */
export async function merchantSettlements(
  deps: MerchantSettlementsDeps,
  merchantIdentifier: string,
  limit: number,
): Promise<Settlement[] | null> {
  if (!(await deps.merchants.findById(merchantIdentifier))) return null;
  return deps.settlementReads.latest(merchantIdentifier, limit);
}
