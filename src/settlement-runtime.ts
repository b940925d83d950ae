import type { BankPayouts } from './bank/connector';
import type { SettlementAccountReader, SettlementActivityDeps } from '../activities/settlement-activities';
import type { Config } from './config';
import { parseHolidays, type SettlementCalendar } from './domain/settlement-calendar';
import { DEFAULT_FEE_PLAN, feePlanSchema, type FeePlan } from './domain/settlement-fees';
import { PayoutAccountSeal, SettlementAccountRepository, readSettlementAccount } from './store/settlement-account-repository';
import { SettlementClaimRepository } from './store/settlement-claim-repository';
import { SettlementRepository } from './store/settlement-repository';
import { SettlementSettingsRepository } from './store/settlement-settings-repository';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { MerchantRepository } from './store/merchant-repository';
import type { TransactionRepository } from './store/transaction-repository';

/** The working-day calendar of the configuration (SETTLEMENT_DAYS, SETTLEMENT_HOLIDAYS). */
export const settlementCalendar = (c: Pick<Config, 'SETTLEMENT_DAYS' | 'SETTLEMENT_HOLIDAYS'>): SettlementCalendar => ({
  days: c.SETTLEMENT_DAYS,
  holidays: parseHolidays(c.SETTLEMENT_HOLIDAYS),
});

/** The fee plan of merchants without their own (SETTLEMENT_FEE_PLAN, validated at start-up). */
export const defaultFeePlan = (c: Pick<Config, 'SETTLEMENT_FEE_PLAN'>): FeePlan =>
  c.SETTLEMENT_FEE_PLAN ? feePlanSchema.parse(JSON.parse(c.SETTLEMENT_FEE_PLAN)) : DEFAULT_FEE_PLAN;

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
    new SettlementAccountRepository(rt.store.db, rt.config.MASTER_KEY),
  ),
): SettlementActivityDeps {
  return {
    settlementStore: new SettlementRepository(rt.store.db),
    settlementClaims: new SettlementClaimRepository(rt.store.db, rt.transactions),
    settlementSettings: new SettlementSettingsRepository(rt.store.db),
    payouts,
    settlementAccount,
    payoutAccountSeal: new PayoutAccountSeal(rt.config.MASTER_KEY),
    merchants: rt.merchants,
    settlementCalendar: settlementCalendar(rt.config),
    defaultFeePlan: defaultFeePlan(rt.config),
    now: rt.now,
    temporal: rt.temporal,
    taskQueue: rt.config.TEMPORAL_TASK_QUEUE,
  };
}
