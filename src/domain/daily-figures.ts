import { istDate } from './ist-time';
import type { Paise } from './money';
import type { Transaction } from './transaction';

/**
 * What one order adds to its IST day's figures on the dashboard overview, given its state: it is one
 * order created that day, paid (anything that succeeded counts as paid, whatever refunds or
 * chargebacks came after: `successAt` is never cleared) or failed (answered and never paid), and
 * its amount joins the day's volume once paid. A pending order counts only as an order.
 */
export interface FigureContribution {
  succeeded: 0 | 1;
  failed: 0 | 1;
  volumePaise: Paise;
}

/** A day's totals, or a change to them: orders created, paid, failed, volume paid (paise). */
export interface FigureTotals {
  count: number;
  succeeded: number;
  failed: number;
  volumePaise: Paise;
}

export const NO_FIGURES: Readonly<FigureTotals> = Object.freeze({ count: 0, succeeded: 0, failed: 0, volumePaise: 0 });

export type FigureSource = Pick<Transaction, 'createdAt' | 'status' | 'amountPaise' | 'successAt'>;

export function figureContribution(t: Pick<FigureSource, 'status' | 'amountPaise' | 'successAt'>): FigureContribution {
  if (t.successAt) return { succeeded: 1, failed: 0, volumePaise: t.amountPaise };
  return { succeeded: 0, failed: t.status === 'Failure' ? 1 : 0, volumePaise: 0 };
}

/** The IST day (yyyy-MM-dd) an order's figures belong to: the day it was created. */
export function figureDay(createdAt: Date): string {
  return istDate(createdAt);
}

/**
 * What moving an order's counted contribution from `counted` (null: the order is not counted at
 * all yet) to `target` changes in its day's totals; null when nothing changes.
 */
export function figureChange(counted: FigureContribution | null, target: FigureContribution): FigureTotals | null {
  const change: FigureTotals = {
    count: counted ? 0 : 1,
    succeeded: target.succeeded - (counted?.succeeded ?? 0),
    failed: target.failed - (counted?.failed ?? 0),
    volumePaise: target.volumePaise - (counted?.volumePaise ?? 0),
  };
  return change.count || change.succeeded || change.failed || change.volumePaise ? change : null;
}

/** The sum of two totals (or changes). */
export function addFigures(a: FigureTotals, b: FigureTotals): FigureTotals {
  return {
    count: a.count + b.count,
    succeeded: a.succeeded + b.succeeded,
    failed: a.failed + b.failed,
    volumePaise: a.volumePaise + b.volumePaise,
  };
}
