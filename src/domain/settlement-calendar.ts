import { istDate, istWallClockToInstant } from './ist-time';

/**
 * Working days in IST: Saturdays, Sundays and the configured holidays (`yyyy-MM-dd`) are off. A
 * payment captured on IST day D settles on the N-th working day after D.
 *
 * T+0 (N = 0) settles a working day's captures on that same day, up to its cut-off: the hour
 * (IST) the day's settlements start (`cutoffHourIst`, SETTLEMENT_HOUR_IST), since a settlement
 * cannot claim what is not captured yet. A capture at or after the cut-off, or on a day that is
 * not a working day, settles on the next working day (before that day's cut-off).
 */
export interface SettlementCalendar {
  days: number;
  holidays: ReadonlySet<string>;
  /** T+0 only: the IST hour ending a day's captures (0, midnight, when absent). */
  cutoffHourIst?: number;
}

const DAY_MS = 86_400_000;

/** A `yyyy-MM-dd` date moved by whole days (calendar arithmetic on UTC midnight, no time zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** True for a real `yyyy-MM-dd` date. */
export function isIsoDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && addDays(text, 0) === text;
}

export function isWorkingDay(cal: SettlementCalendar, date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !cal.holidays.has(date);
}

/**
 * The N-th working day after `date` (T+N). For T+0, `date` is the cut-off day (captures from the
 * previous day's cut-off until its own) and the answer is the first working day from it on.
 */
export function settlementDateOf(cal: SettlementCalendar, captureDate: string): string {
  let d = captureDate;
  if (cal.days === 0) {
    while (!isWorkingDay(cal, d)) d = addDays(d, 1);
    return d;
  }
  for (let left = cal.days; left > 0;) {
    d = addDays(d, 1);
    if (isWorkingDay(cal, d)) left--;
  }
  return d;
}

/**
 * Where a capture day ends, after IST midnight: for T+0 the cut-off of the next day (a day's
 * captures then run from the previous day's cut-off to its own), for T+N midnight.
 */
const dayEndOffsetMs = (cal: SettlementCalendar) => (cal.days === 0 ? (cal.cutoffHourIst ?? 0) * 3_600_000 - DAY_MS : 0);

/** The settlement date of a payment captured at `capturedAt`. */
export const settlementDateOfCapture = (cal: SettlementCalendar, capturedAt: Date) =>
  settlementDateOf(cal, istDate(new Date(capturedAt.getTime() - dayEndOffsetMs(cal))));

/**
 * The capture days that settle on `settlementDate` (none when it is not a working day), as the
 * instants [from, to) they span (IST days, or for T+0 from cut-off to cut-off). settlementDateOf
 * never decreases with the capture date, so the days are the date itself (T+0) or the ones just
 * before it, walking back until one settles earlier.
 */
export function captureWindow(cal: SettlementCalendar, settlementDate: string): { from: Date; to: Date } | null {
  let earliest: string | null = null;
  let latest: string | null = null;
  for (let d = settlementDate, i = 0; i < 400; d = addDays(d, -1), i++) {
    const s = settlementDateOf(cal, d);
    if (s > settlementDate) continue;
    if (s < settlementDate) break;
    latest ??= d;
    earliest = d;
  }
  if (!earliest || !latest) return null;
  const offset = dayEndOffsetMs(cal);
  return {
    from: new Date(istMidnight(earliest).getTime() + offset),
    to: new Date(istMidnight(addDays(latest, 1)).getTime() + offset),
  };
}

/** IST midnight starting a `yyyy-MM-dd` date. */
export function istMidnight(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return istWallClockToInstant(y, m, d)!;
}

/** Parses SETTLEMENT_HOLIDAYS: comma-separated `yyyy-MM-dd` dates (spaces allowed); throws on a bad date. */
export function parseHolidays(text: string): Set<string> {
  const dates = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const d of dates) if (!isIsoDate(d)) throw new Error(`not a yyyy-MM-dd date: ${d}`);
  return new Set(dates);
}
