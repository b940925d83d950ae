import type { Config } from './config';
import type { SettlementCalendar } from './domain/settlement-calendar';

/** The working-day calendar of the configuration's settlements (T+days, holidays; T+0 cuts off at hourIst). */
export const settlementCalendar = (
  settlements: Pick<Config['settlements'], 'days' | 'holidays'> & Partial<Pick<Config['settlements'], 'hourIst'>>,
): SettlementCalendar => ({
  days: settlements.days,
  holidays: settlements.holidays,
  ...(settlements.hourIst === undefined ? {} : { cutoffHourIst: settlements.hourIst }),
});
