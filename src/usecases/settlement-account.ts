import type { Db } from 'mongodb';
import type { MaskedSettlementAccount, SettlementAccountInput } from '../domain/settlement-account';
import { SettlementAccountRepository } from '../store/settlement-account-repository';

/** The masked account as the ops API, the CLI and the dashboard show it. */
export function settlementAccountView(merchantIdentifier: string, a: MaskedSettlementAccount | null) {
  return {
    merchantIdentifier,
    settlementAccount: a ? { ...a, updatedAt: a.updatedAt.toISOString() } : null,
  };
}

/**
 * The merchant's settlement bank account, one use case for the operator (API, CLI) and the owner
 * (dashboard): set it (validated by settlementAccountSchema) and read it masked.
 */
export function settlementAccountUseCases(db: Db, masterKey: string) {
  const accounts = new SettlementAccountRepository(db, masterKey);
  return {
    /** Sets the account and answers it masked; null when the merchant does not exist. */
    async set(merchantIdentifier: string, account: SettlementAccountInput, now: Date) {
      if (!(await accounts.set(merchantIdentifier, account, now))) return null;
      return settlementAccountView(merchantIdentifier, await accounts.readMasked(merchantIdentifier));
    },
    /** The account masked (null: none set). */
    masked: (merchantIdentifier: string) => accounts.readMasked(merchantIdentifier),
  };
}
