import type { MaskedSettlementAccount, SettlementAccountInput } from '../domain/settlement-account';
import type { SettlementAccountRepository } from '../store/settlement-account-repository';

/** The masked account as the ops API, the CLI and the dashboard show it. */
export function settlementAccountView(merchantIdentifier: string, a: MaskedSettlementAccount | null) {
  return {
    merchantIdentifier,
    settlementAccount: a ? { ...a, updatedAt: a.updatedAt.toISOString() } : null,
  };
}

/**
 * Sets the merchant's settlement bank account (validated by settlementAccountSchema) and answers
 * it masked; null when the merchant does not exist. One use case for the operator and the owner.
 */
export async function setSettlementAccount(
  accounts: SettlementAccountRepository,
  merchantIdentifier: string,
  account: SettlementAccountInput,
  now: Date,
) {
  if (!(await accounts.set(merchantIdentifier, account, now))) return null;
  return settlementAccountView(merchantIdentifier, await accounts.readMasked(merchantIdentifier));
}
