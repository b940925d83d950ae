import type { Config } from './config';
import type { SettlementCalendar } from './domain/settlement-calendar';

/** The working-day calendar of the configuration's settlements (T+days, holidays; T+0 cuts off at hourIst). */
export const settlementCalendar = (c: {
  settlements: Pick<Config['settlements'], 'days' | 'holidays'> & Partial<Pick<Config['settlements'], 'hourIst'>>;
}): SettlementCalendar => ({
  days: c.settlements.days,
  holidays: c.settlements.holidays,
  ...(c.settlements.hourIst === undefined ? {} : { cutoffHourIst: c.settlements.hourIst }),
});
