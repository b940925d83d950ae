import type { Config } from './config';
import type { SettlementCalendar } from './domain/settlement-calendar';

/** The settlement section of the configuration as the values the settlement code uses. */

/** The working-day calendar of the configuration (SETTLEMENT_DAYS, SETTLEMENT_HOLIDAYS; T+0 cuts off at SETTLEMENT_HOUR_IST). */
export const settlementCalendar = (
  c: Pick<Config, 'SETTLEMENT_DAYS' | 'SETTLEMENT_HOLIDAYS'> & Partial<Pick<Config, 'SETTLEMENT_HOUR_IST'>>,
): SettlementCalendar => ({
  days: c.SETTLEMENT_DAYS,
  holidays: c.SETTLEMENT_HOLIDAYS,
  ...(c.SETTLEMENT_HOUR_IST === undefined ? {} : { cutoffHourIst: c.SETTLEMENT_HOUR_IST }),
});
