import { lastIstDays, overviewDays, type DayFigures } from '../domain/overview';
import type { DailyFiguresRepository } from '../store/daily-figures-repository';

/**
 * The dashboard overview's figures of the merchant's last `n` IST days up to the day of `now`,
 * oldest first: its daily figures, read by _id (n small documents whatever its volume).
 */
export async function overviewFigures(
  deps: { dailyFigures: Pick<DailyFiguresRepository, 'ofDays'> },
  merchantIdentifier: string,
  now: Date,
  n: number,
): Promise<DayFigures[]> {
  const days = lastIstDays(now, n);
  const totals = await deps.dailyFigures.ofDays(
    merchantIdentifier,
    days.map((d) => d.day),
  );
  return overviewDays(totals, days);
}
