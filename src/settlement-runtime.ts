import type { BankPayouts } from '../activities/bank-connector';
import type { SettlementAccountReader, SettlementActivityDeps } from '../activities/settlement-activities';
import type { Config } from './config';
import { parseHolidays, type SettlementCalendar } from './domain/settlement-calendar';
import { DEFAULT_FEE_PLAN, feePlanSchema, type FeePlan } from './domain/settlement-fees';
import { SettlementClaimRepository } from './store/settlement-claim-repository';
import { SettlementRepository } from './store/settlement-repository';
import { SettlementSettingsRepository } from './store/settlement-settings-repository';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { TransactionRepository } from './store/transaction-repository';

/** The working-day calendar of the configuration (SETTLEMENT_DAYS, SETTLEMENT_HOLIDAYS). */
export const settlementCalendar = (c: Pick<Config, 'SETTLEMENT_DAYS' | 'SETTLEMENT_HOLIDAYS'>): SettlementCalendar => ({
  days: c.SETTLEMENT_DAYS,
  holidays: parseHolidays(c.SETTLEMENT_HOLIDAYS),
});

/** The fee plan of merchants without their own (SETTLEMENT_FEE_PLAN, validated at start-up). */
export const defaultFeePlan = (c: Pick<Config, 'SETTLEMENT_FEE_PLAN'>): FeePlan =>
  c.SETTLEMENT_FEE_PLAN ? feePlanSchema.parse(JSON.parse(c.SETTLEMENT_FEE_PLAN)) : DEFAULT_FEE_PLAN;

/**
 * Until the merchant bank-account reader is wired (the settlement account is set through the
 * merchant APIs), no merchant has an account: its settlements are refused with that reason and
 * their net carried forward, visible in "needs attention".
 */
const noAccountYet: SettlementAccountReader = async () => null;

/** The settlement activities' dependencies, sharing the runtime's store, clock and bank. */
export function settlementActivityDeps(
  rt: {
    config: Config;
    store: { db: Db };
    transactions: TransactionRepository;
    temporal: Client;
    now: () => Date;
  },
  payouts: BankPayouts,
  settlementAccount: SettlementAccountReader = noAccountYet,
): SettlementActivityDeps {
  return {
    settlementStore: new SettlementRepository(rt.store.db),
    settlementClaims: new SettlementClaimRepository(rt.store.db, rt.transactions),
    settlementSettings: new SettlementSettingsRepository(rt.store.db),
    payouts,
    settlementAccount,
    settlementCalendar: settlementCalendar(rt.config),
    defaultFeePlan: defaultFeePlan(rt.config),
    now: rt.now,
    temporal: rt.temporal,
    taskQueue: rt.config.TEMPORAL_TASK_QUEUE,
  };
}
