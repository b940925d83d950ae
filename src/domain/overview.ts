import { formatIstDateTime, istStartOfDay } from './ist-time';
import type { Paise } from './money';
import type { Transaction } from './transaction';

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
    return { day: formatIstDateTime(from).slice(0, 10), from, until: new Date(from.getTime() + DAY_MS) };
  });
}

/** Counts each row into its day (rows outside every day are ignored); one pass, rows in any order. */
export async function dailyFigures(
  rows: AsyncIterable<Pick<Transaction, 'createdAt' | 'status' | 'amountPaise' | 'successAt'>>,
  days: { day: string; from: Date; until: Date }[],
): Promise<DayFigures[]> {
  const figures = days.map((d) => ({ day: d.day, count: 0, succeeded: 0, failed: 0, volumePaise: 0 }));
  const start = days[0]?.from.getTime() ?? 0;
  for await (const t of rows) {
    const f = figures[Math.floor((t.createdAt.getTime() - start) / DAY_MS)];
    if (!f) continue;
    f.count++;
    // Anything that succeeded counts as paid, whatever refunds or chargebacks came after.
    if (t.successAt) {
      f.succeeded++;
      f.volumePaise += t.amountPaise;
    } else if (t.status === 'Failure') f.failed++;
  }
  return figures.map((f) => ({
    ...f,
    successRate: f.succeeded + f.failed === 0 ? null : f.succeeded / (f.succeeded + f.failed),
  }));
}
