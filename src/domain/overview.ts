import { istDate, istStartOfDay } from './ist-time';
import type { Paise } from './money';
import { NO_FIGURES, type FigureTotals } from './daily-figures';

/**
 * The dashboard overview's figures per IST day: volume (what was paid), count (orders created) and
 * success rate (paid among those the bank answered; orders still pending are not counted in it).
 */
export interface DayFigures {
  /** yyyy-MM-dd, IST */
  day: string;
  count: number;
  succeeded: number;
  failed: number;
  volumePaise: Paise;
  /** 0..1; null when the bank answered none of the day's orders yet. */
  successRate: number | null;
}

const DAY_MS = 86_400_000;

/** The last `n` IST days up to and including the day of `now`, oldest first, as [from, until). */
export function lastIstDays(now: Date, n: number): { day: string; from: Date; until: Date }[] {
  const today = istStartOfDay(now).getTime();
  return Array.from({ length: n }, (_, i) => {
    const from = new Date(today - (n - 1 - i) * DAY_MS);
    return { day: istDate(from), from, until: new Date(from.getTime() + DAY_MS) };
  });
}

/**
 * The overview's figures of `days` from the stored daily totals (a day with none stored had no
 * orders), with each day's success rate.
 */
export function overviewDays(totals: ReadonlyMap<string, FigureTotals>, days: { day: string }[]): DayFigures[] {
  return days.map(({ day }) => {
    const f = totals.get(day) ?? NO_FIGURES;
    const answered = f.succeeded + f.failed;
    return {
      day,
      count: f.count,
      succeeded: f.succeeded,
      failed: f.failed,
      volumePaise: f.volumePaise,
      successRate: answered === 0 ? null : f.succeeded / answered,
    };
  });
}
