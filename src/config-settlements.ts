import type { Config } from './config';
import { parseHolidays, type SettlementCalendar } from './domain/settlement-calendar';
import { DEFAULT_FEE_PLAN, feePlanSchema, type FeePlan } from './domain/settlement-fees';

/** The settlement section of the configuration as the values the settlement code uses. */

/** The working-day calendar of the configuration (SETTLEMENT_DAYS, SETTLEMENT_HOLIDAYS; T+0 cuts off at SETTLEMENT_HOUR_IST). */
export const settlementCalendar = (
  c: Pick<Config, 'SETTLEMENT_DAYS' | 'SETTLEMENT_HOLIDAYS'> & Partial<Pick<Config, 'SETTLEMENT_HOUR_IST'>>,
): SettlementCalendar => ({
  days: c.SETTLEMENT_DAYS,
  holidays: parseHolidays(c.SETTLEMENT_HOLIDAYS),
  ...(c.SETTLEMENT_HOUR_IST === undefined ? {} : { cutoffHourIst: c.SETTLEMENT_HOUR_IST }),
});

/** The fee plan of merchants without their own (SETTLEMENT_FEE_PLAN, validated at start-up). */
export const defaultFeePlan = (c: Pick<Config, 'SETTLEMENT_FEE_PLAN'>): FeePlan =>
  c.SETTLEMENT_FEE_PLAN ? feePlanSchema.parse(JSON.parse(c.SETTLEMENT_FEE_PLAN)) : DEFAULT_FEE_PLAN;
