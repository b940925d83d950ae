import type { Collection, Db, Filter } from 'mongodb';
import {
  addFigures,
  figureChange,
  figureContribution,
  figureDay,
  NO_FIGURES,
  type FigureContribution,
  type FigureSource,
  type FigureTotals,
} from '../domain/daily-figures';
import { istStartOfDay } from '../domain/ist-time';
import { isDuplicateKeyError } from './mongo';

/** One merchant's totals of one IST day (`_id` = `<merchantIdentifier>:<yyyy-MM-dd>`). */
export interface DailyFiguresDoc extends FigureTotals {
  _id: string;
  merchantIdentifier: string;
  day: string;
  /** Bumped by every change, so a rebuild can tell whether the day moved while it counted. */
  rev: number;
}

/**
 * The fields of a stored transaction the figures read. `countedInFigures` is what the order has
 * added to its day's totals so far (absent: nothing yet, it was stored before daily figures).
 */
export interface CountableDoc extends FigureSource {
  _id: string;
  merchantIdentifier: string;
  version: number;
  countedInFigures?: FigureContribution;
}

const COUNTABLE_FIELDS = {
  _id: 1,
  merchantIdentifier: 1,
  createdAt: 1,
  status: 1,
  amountPaise: 1,
  successAt: 1,
  version: 1,
  countedInFigures: 1,
} as const;
const DAY_MS = 86_400_000;
const CLAIM_ATTEMPTS = 5;
const REBUILD_ATTEMPTS = 5;
const CLAIMS_IN_FLIGHT = 16;

const dayKey = (merchantIdentifier: string, day: string) => `${merchantIdentifier}:${day}`;

/** A day's document as first stored with these totals (a rebuild, or a benchmark's seeded store). */
export function dailyFiguresDoc(merchantIdentifier: string, day: string, totals: FigureTotals): DailyFiguresDoc {
  return { _id: dayKey(merchantIdentifier, day), merchantIdentifier, day, ...totals, rev: 1 };
}

const sameContribution = (a: FigureContribution | undefined, b: FigureContribution) =>
  !!a && a.succeeded === b.succeeded && a.failed === b.failed && a.volumePaise === b.volumePaise;

/** The filter that matches the order only while it still holds `counted` (compared field by field). */
function stillCounted(counted: FigureContribution | undefined): Filter<CountableDoc> {
  if (!counted) return { countedInFigures: { $exists: false } };
  return {
    'countedInFigures.succeeded': counted.succeeded,
    'countedInFigures.failed': counted.failed,
    'countedInFigures.volumePaise': counted.volumePaise,
  };
}

/**
 * The dashboard overview's daily figures (`daily_figures`): per merchant and IST day of creation,
 * orders created, paid, failed and the volume paid, kept up to date by the transaction repository's
 * writes, so the overview reads 14 small documents whatever the merchant's volume.
 *
 * Idempotency: each order records on itself what it has added (`countedInFigures`). After a write
 * changes an order, `count` claims the difference with a conditional update of the order (its
 * version and what it had counted), and only the write that won the claim adds the difference to
 * the day. A retried or replayed activity finds the claim made (the order's `countedInFigures`
 * equals what its state contributes) and adds nothing: never counted twice. A crash between the
 * claim and the addition loses that addition (the day under-counts by one order's change, the only
 * drift there is); a crash between the order's own write and the claim is healed by the retry,
 * which claims and adds. `rebuild` recomputes days from the orders and repairs any drift.
 */
export class DailyFiguresRepository {
  private readonly days: Collection<DailyFiguresDoc>;
  private readonly txns: Collection<CountableDoc>;

  constructor(db: Db) {
    this.days = db.collection<DailyFiguresDoc>('daily_figures');
    this.txns = db.collection<CountableDoc>('transactions');
  }

  /** What a new order stores as counted when it is inserted: a pending order's contribution. */
  static readonly NEW_ORDER: FigureContribution = Object.freeze({
    succeeded: 0,
    failed: 0,
    volumePaise: 0,
  });

  /**
   * New orders, just inserted with `countedInFigures` = NEW_ORDER (their insert is the claim): adds
   * them to their days. A crash before this addition leaves them uncounted until a rebuild.
   */
  async addNewOrders(orders: { merchantIdentifier: string; createdAt: Date }[]): Promise<void> {
    const perDay = new Map<string, { merchantIdentifier: string; day: string; count: number }>();
    for (const o of orders) {
      const day = figureDay(o.createdAt);
      const key = dayKey(o.merchantIdentifier, day);
      const entry = perDay.get(key) ?? { merchantIdentifier: o.merchantIdentifier, day, count: 0 };
      entry.count++;
      perDay.set(key, entry);
    }
    for (const { merchantIdentifier, day, count } of perDay.values())
      await this.add(merchantIdentifier, day, { ...NO_FIGURES, count });
  }

  /**
   * Brings the order's day up to date with the order as just written (`doc`, as stored after the
   * write): claims the difference between what it contributes and what it has counted, then adds it.
   * Nothing to do (no write at all) when they are equal, as on a replayed activity.
   */
  async count(doc: CountableDoc): Promise<void> {
    let current: CountableDoc | null = doc;
    for (let attempt = 0; current && attempt < CLAIM_ATTEMPTS; attempt++) {
      const target = figureContribution(current);
      const change = figureChange(current.countedInFigures ?? null, target);
      if (!change) return;
      const claimed = await this.txns.updateOne(
        { _id: current._id, version: current.version, ...stillCounted(current.countedInFigures) },
        { $set: { countedInFigures: target } },
      );
      if (claimed.matchedCount === 1) return this.add(current.merchantIdentifier, figureDay(current.createdAt), change);
      // Another write changed the order or claimed first: it counts its own change; look again.
      current = await this.txns.findOne({ _id: current._id }, { projection: COUNTABLE_FIELDS });
    }
    if (current) throw new Error(`order ${current._id} kept changing while its daily figures were counted`);
  }

  /**
   * For a write that moves an order between two states it knows (a Pending order recording its
   * outcome, with the order's amount): the condition and the `$set` that make that write its own
   * claim, so the order is not written a second time. The write matches only while the order holds
   * what `before` contributes; once it matched, `addClaimed` adds the change to the day, and a crash
   * in between loses that addition, as one between `count`'s claim and addition does. A write that
   * does not match changed nothing: its caller writes as before and calls `count`.
   */
  static claimInWrite(
    before: Parameters<typeof figureContribution>[0],
    after: Parameters<typeof figureContribution>[0],
  ): { filter: Filter<CountableDoc>; set: { countedInFigures: FigureContribution }; change: FigureTotals | null } {
    const counted = figureContribution(before);
    const target = figureContribution(after);
    return { filter: stillCounted(counted), set: { countedInFigures: target }, change: figureChange(counted, target) };
  }

  /** Adds what a write claimed with `claimInWrite` to the order's day. */
  async addClaimed(order: { merchantIdentifier: string; createdAt: Date }, change: FigureTotals | null): Promise<void> {
    if (change) await this.add(order.merchantIdentifier, figureDay(order.createdAt), change);
  }

  /** The merchant's totals of these IST days (days without orders are absent). */
  async ofDays(merchantIdentifier: string, days: string[]): Promise<Map<string, FigureTotals>> {
    const docs = await this.days.find({ _id: { $in: days.map((d) => dayKey(merchantIdentifier, d)) } }).toArray();
    return new Map(
      docs.map((d) => [d.day, { count: d.count, succeeded: d.succeeded, failed: d.failed, volumePaise: d.volumePaise }]),
    );
  }

  /**
   * Recomputes the merchant's figures of the IST days from `from` to `until` (instants at IST
   * midnight; `until` excluded) from its orders, one day at a time: reads the day's orders
   * (merchant_created), sums what each contributes, marks each as counted that way, and replaces
   * the day's totals unless the day changed meanwhile (its `rev`), in which case it counts again.
   * Exact when no order of the day is between its claim and its addition (a crash there is what it
   * repairs); an addition whose claim came before this read and which lands after this write counts
   * twice, so run it again if orders of the day were changing. Returns the days and orders counted.
   */
  async rebuild(merchantIdentifier: string, from: Date, until: Date): Promise<{ days: number; orders: number }> {
    let days = 0;
    let orders = 0;
    for (let start = from.getTime(); start < until.getTime(); start += DAY_MS) {
      const counted = await this.rebuildDay(merchantIdentifier, new Date(start), new Date(start + DAY_MS));
      if (counted > 0) days++;
      orders += counted;
    }
    return { days, orders };
  }

  /**
   * Rebuilds every merchant's days from its first order to the day of `now` (a store that held
   * orders before daily figures existed: run once, migration-markers.ts). Returns the orders counted.
   */
  async rebuildAll(now: Date): Promise<number> {
    const merchants: string[] = await this.txns.distinct('merchantIdentifier', {});
    let orders = 0;
    for (const m of merchants) {
      const first = await this.txns
        .find({ merchantIdentifier: m }, { projection: { createdAt: 1 } })
        .sort({ createdAt: 1 })
        .limit(1)
        .next();
      if (!first) continue;
      orders += (await this.rebuild(m, istStartOfDay(first.createdAt), new Date(istStartOfDay(now).getTime() + DAY_MS))).orders;
    }
    return orders;
  }

  private async rebuildDay(merchantIdentifier: string, from: Date, until: Date): Promise<number> {
    const _id = dayKey(merchantIdentifier, figureDay(from));
    for (let attempt = 0; attempt < REBUILD_ATTEMPTS; attempt++) {
      const rev = (await this.days.findOne({ _id }, { projection: { rev: 1 } }))?.rev;
      const docs = await this.txns
        .find({ merchantIdentifier, createdAt: { $gte: from, $lt: until } }, { projection: COUNTABLE_FIELDS })
        .sort({ createdAt: 1 })
        .batchSize(1000)
        .toArray();
      if (docs.length === 0 && rev === undefined) return 0;
      let totals: FigureTotals = NO_FIGURES;
      const claims: { _id: string; version: number; target: FigureContribution }[] = [];
      for (const d of docs) {
        const target = figureContribution(d);
        totals = addFigures(totals, figureChange(null, target)!);
        if (!sameContribution(d.countedInFigures, target)) claims.push({ _id: d._id, version: d.version, target });
      }
      if (!(await this.claimAll(claims))) continue; // an order changed since read: count again
      const replaced = await this.replaceDay(_id, merchantIdentifier, figureDay(from), rev, totals);
      if (replaced) return docs.length;
    }
    throw new Error(`the daily figures of ${_id} kept changing while they were rebuilt`);
  }

  /**
   * Marks orders as counted with what they contribute, each only if unchanged since read; false
   * when one had changed. One updateOne each, a few at a time: the embedded store stalls on one
   * update command holding hundreds of statements.
   */
  private async claimAll(claims: { _id: string; version: number; target: FigureContribution }[]): Promise<boolean> {
    let all = true;
    for (let i = 0; i < claims.length; i += CLAIMS_IN_FLIGHT) {
      const results = await Promise.all(
        claims
          .slice(i, i + CLAIMS_IN_FLIGHT)
          .map((c) => this.txns.updateOne({ _id: c._id, version: c.version }, { $set: { countedInFigures: c.target } })),
      );
      all &&= results.every((r) => r.matchedCount === 1);
    }
    return all;
  }

  /** Writes a day's totals if its `rev` is still `rev` (undefined: the day had no document). */
  private async replaceDay(_id: string, merchantIdentifier: string, day: string, rev: number | undefined, totals: FigureTotals) {
    if (rev === undefined) {
      try {
        await this.days.insertOne(dailyFiguresDoc(merchantIdentifier, day, totals));
        return true;
      } catch (e) {
        if (isDuplicateKeyError(e)) return false;
        throw e;
      }
    }
    const r = await this.days.updateOne({ _id, rev }, { $set: { ...totals }, $inc: { rev: 1 } });
    return r.matchedCount === 1;
  }

  /** Adds a change to a day's totals (creating the day's document on its first order). */
  private async add(merchantIdentifier: string, day: string, change: FigureTotals): Promise<void> {
    const _id = dayKey(merchantIdentifier, day);
    const update = { $inc: { ...change, rev: 1 }, $setOnInsert: { merchantIdentifier, day } };
    try {
      await this.days.updateOne({ _id }, update, { upsert: true });
    } catch (e) {
      // Two first orders of a day raced to create its document: the loser adds to the winner's.
      if (!isDuplicateKeyError(e)) throw e;
      await this.days.updateOne({ _id }, update);
    }
  }
}
