import type { BankPayouts } from '../bank/connector';
import type { SettlementAccountReader, SettlementActivityDeps } from '../../activities/settlement-activities';
import type { Config } from '../config';
import { settlementCalendar } from '../config-settlements';
import { PayoutAccountSeal, SettlementAccountRepository, readSettlementAccount } from '../store/settlement-account-repository';
import { SettlementAttentionRepository } from '../store/settlement-attention-repository';
import { SettlementClaimRepository } from '../store/settlement-claim-repository';
import { SettlementRepository } from '../store/settlement-repository';
import { SettlementSettingsRepository } from '../store/settlement-settings-repository';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { MerchantRepository } from '../store/merchant-repository';
import type { TransactionRepository } from '../store/transaction-repository';

/** The settlement activities' dependencies, sharing the runtime's store, clock and bank. */
export function settlementActivityDeps(
  rt: {
    config: Config;
    store: { db: Db };
    transactions: TransactionRepository;
    merchants: MerchantRepository;
    temporal: Client;
    now: () => Date;
  },
  payouts: BankPayouts,
  /** The merchant's settlement bank account (set by an operator or the owner; none: the payout is refused and carried). */
  settlementAccount: SettlementAccountReader = readSettlementAccount(
    new SettlementAccountRepository(rt.store.db, rt.config.secrets.masterKey),
  ),
): SettlementActivityDeps {
  return {
    settlementStore: new SettlementRepository(rt.store.db),
    settlementAttention: new SettlementAttentionRepository(rt.store.db),
    settlementClaims: new SettlementClaimRepository(rt.store.db, rt.transactions),
    settlementSettings: new SettlementSettingsRepository(rt.store.db),
    payouts,
    settlementAccount,
    payoutAccountSeal: new PayoutAccountSeal(rt.config.secrets.masterKey),
    merchants: rt.merchants,
    settlementCalendar: settlementCalendar(rt.config.settlements),
    defaultFeePlan: rt.config.settlements.feePlan,
    now: rt.now,
    temporal: rt.temporal,
    taskQueue: rt.config.temporal.taskQueue,
  };
}
