import { backfillMerchantAdjustedAt, type BackfillPosition } from './migrations/settlement-adjusted-at';
import type { Collection, Db, Document, Filter } from 'mongodb';
import { chargebackLine, refundLine, saleLines } from '../domain/settlement-lines';
import { settlementLineId, type SettlementLine } from '../domain/settlement';
import type { FeePlan } from '../domain/settlement-fees';
import { SettlementClaimFence } from './settlement-claim-fence';
import type { TransactionRepository, TransactionWithoutBuyer } from './transaction-repository';

/**
 * Where a page of claims resumes: after the row at `at` (ISO) with `txnId`, in the order (date,
 * txnId). A keyset, never a count of rows read: rows claimed by another settlement meanwhile drop
 * out of the page's filter and a count would then skip as many unread rows. `ties` (a count of the
 * rows read at `at`) is what cursors recorded in histories before the keyset carry. `backfill`
 * (adjustments only) is where the fill-in of `adjustedAt` goes on before the first adjustments page.
 */
export type ClaimCursor = PageCursor | { backfill: BackfillPosition };
type PageCursor = { at: string; txnId: string } | { at: string; ties: number };

/**
 * Pages of the merchant's writes one adjustments call fills in `adjustedAt` on, at most (while an
 * upgrade lies in the lookback): each call's work stays bounded, the rest goes on in the next call.
 */
export const BACKFILL_PAGES_PER_CLAIM = 20;

/** Called before each write a claim page makes: throws when the page may no longer write (the settlement's fence). */
export type ClaimGuard = () => Promise<void>;
const unguarded: ClaimGuard = async () => undefined;

export interface ClaimScope {
  settlementId: string;
  merchantIdentifier: string;
  settlementDate: string;
  /** Captures from this instant on (the window's start, minus the lookback) ... */
  from: Date;
  /** ... and before this one (the end of the last capture day settling on the date). */
  to: Date;
  plan: FeePlan;
}

/**
 * Conditional claims sent in one update command at most. The embedded store (FerretDB 1.24 on
 * SQLite) keeps each matched statement's read open until the whole command ends, one pooled SQLite
 * connection each out of 100: a command of 100 claims that all match waits forever for a connection
 * to write with. 50 leaves room for the store's other requests.
 */
export const CLAIMS_PER_COMMAND = 50;

/** Far enough for any updatedAt, with the same 13 digits of epoch ms (the embedded store's range pushdown). */
const FAR_FUTURE = new Date('2200-01-01T00:00:00Z');

/**
 * Claims a merchant's sales, refunds and chargebacks for one settlement, a page at a time: each
 * event by a conditional update of its transaction (`saleSettlementId`, the refund's or the
 * chargeback's `settlementId`, absent before), bumping `version` so a concurrent read-modify-write
 * of the order (a refund settling) re-reads it. Then the lines of what this settlement holds are
 * inserted by their deterministic `_id`: a retried page claims nothing twice and inserts no line
 * twice, and an event claimed before a crash (still this settlement's) gets its line on the retry.
 * Split shares of other merchants get a line parked for them (`pendingLineSettlementId`), which
 * their own next settlement adopts.
 */
export class SettlementClaimRepository {
  private readonly txns: Collection<Document>;
  private readonly lines: Collection<SettlementLine>;
  /** Orders the claim pages before the totals (settlement-claim-fence.ts). */
  readonly fence: SettlementClaimFence;

  constructor(
    private readonly db: Db,
    private readonly transactions: TransactionRepository,
  ) {
    this.txns = db.collection('transactions');
    this.lines = db.collection<SettlementLine>('settlement_lines');
    this.fence = new SettlementClaimFence(db);
  }

  /**
   * One page of sales captured in [from, to): paid orders (successAt set) not claimed by another
   * settlement. Each claim is conditional on the split as read (absent, or set: a split is written
   * once, only before the claim), so a split recorded between the read and the claim makes the
   * claim miss; the order is read again and claimed as it now stands. Lines are built only from a
   * document the claim held: a split answered "recorded" is always settled as recorded, and a
   * retried page rebuilds the very same lines.
   */
  async claimSales(
    s: ClaimScope,
    cursor: ClaimCursor | null,
    limit: number,
    guard: ClaimGuard = unguarded,
  ): Promise<{ lines: number; next: ClaimCursor | null }> {
    if (cursor && 'backfill' in cursor) throw new Error('a sales page was given an adjustments cursor');
    const page = await this.page('successAt', { $gte: s.from, $lt: s.to }, s, cursor, limit, {
      saleSettlementId: { $in: [null, s.settlementId] },
    });
    const held = page.rows.filter((t) => t.saleSettlementId === s.settlementId);
    let unclaimed = page.rows.filter((t) => t.saleSettlementId === undefined);
    // Each round misses only orders split meanwhile (once each) or claimed elsewhere: a few rounds at most.
    for (let round = 0; unclaimed.length > 0 && round < 4; round++) {
      const won = await this.conditionalClaims(
        unclaimed.map((t) => ({
          filter: { txnId: t.txnId, saleSettlementId: { $exists: false }, split: { $exists: t.split !== undefined } },
          set: { saleSettlementId: s.settlementId },
        })),
        guard,
      );
      if (won === unclaimed.length) {
        held.push(...unclaimed);
        break;
      }
      // Some missed: claimed by another settlement (dropped), by another attempt of this page
      // (ours, as it stands), or split since the read (claimed again, with its split).
      const again = await this.transactions.findByTxnIds(unclaimed.map((t) => t.txnId));
      held.push(...again.filter((t) => t.saleSettlementId === s.settlementId));
      unclaimed = again.filter((t) => t.saleSettlementId === undefined);
    }
    const ctx = { settlementId: s.settlementId, settlementDate: s.settlementDate };
    const lines = held.flatMap((t) =>
      saleLines(t, s.plan, ctx).map((l) =>
        l.merchantIdentifier === s.merchantIdentifier
          ? l
          : { ...l, settlementId: pendingLineSettlementId(l.merchantIdentifier), settlementDate: '' },
      ),
    );
    await guard();
    await this.insertLines(lines);
    return { lines: lines.length, next: page.next };
  }

  /**
   * One page of the merchant's orders with an adjustment since `from` (`adjustedAt`, written with
   * each refund settled, chargeback raised or reverted): their refunds settled (SUCCESS) and
   * chargebacks raised or reverted before `to`, not claimed by another settlement. Orders without
   * any adjustment are never read, however many the merchant has.
   */
  async claimAdjustments(
    s: ClaimScope,
    cursor: ClaimCursor | null,
    limit: number,
    guard: ClaimGuard = unguarded,
  ): Promise<{ lines: number; next: ClaimCursor | null }> {
    // First: the merchant's adjustments an old worker wrote without `adjustedAt`, when the rolling
    // deploy that brought the field falls in this settlement's lookback (else nothing is read), a
    // bounded number of pages a call; the `backfill` cursor carries the rest to the next call.
    if (cursor === null || 'backfill' in cursor) {
      const filled = await backfillMerchantAdjustedAt(this.db, s.merchantIdentifier, s.from, guard, {
        after: cursor?.backfill ?? null,
        pages: BACKFILL_PAGES_PER_CLAIM,
      });
      if (filled.next) return { lines: 0, next: { backfill: filled.next } };
      cursor = null;
    }
    const page = await this.page('adjustedAt', { $gte: s.from, $lt: FAR_FUTURE }, s, cursor, limit, {});
    const ours = (id: string | undefined) => id === undefined || id === s.settlementId;
    const due = page.rows.flatMap((t) => adjustmentsDue(t, s.to, ours));
    const claims = due
      .filter((d) => d.claimedBy === undefined)
      .map((d) => ({ filter: { txnId: d.t.txnId, ...d.unclaimed }, set: d.set(s.settlementId), key: d.key }));
    const won = await this.claim(claims, guard);
    const held = due.filter((d) => d.claimedBy === s.settlementId || won.has(d.key));
    const sales = await this.saleFees(held.filter((d) => d.kind === 'refund').map((d) => d.t));
    const ctx = { settlementId: s.settlementId, settlementDate: s.settlementDate };
    const lines = held.map((d) => {
      if (d.kind === 'refund') {
        const master = d.t.split?.masterMerchantIdentifier ?? d.t.merchantIdentifier;
        const sale = sales.get(d.t.txnId) ?? saleLines(d.t, s.plan, ctx).find((l) => l.merchantIdentifier === master)!;
        return refundLine(d.t, d.index, s.plan, sale, ctx);
      }
      return chargebackLine(d.t, d.t.chargeback!.amountPaise, d.kind === 'reversal', ctx);
    });
    await guard();
    await this.insertLines(lines);
    return { lines: lines.length, next: page.next };
  }

  /** Anything this settlement would claim: one unclaimed sale in the window, or one due adjustment. */
  async hasDue(s: ClaimScope): Promise<boolean> {
    const sale = await this.transactions.findMatching(
      { merchantIdentifier: s.merchantIdentifier, successAt: { $gte: s.from, $lt: s.to }, saleSettlementId: { $in: [null] } },
      { successAt: 1, txnId: 1 },
      1,
    );
    if (sale.length > 0) return true;
    for (let cursor: PageCursor | null = null, first = true; first || cursor; first = false) {
      const page = await this.page('adjustedAt', { $gte: s.from, $lt: FAR_FUTURE }, s, cursor, 1000, {});
      if (page.rows.some((t) => adjustmentsDue(t, s.to, (id) => id === undefined).length > 0)) return true;
      cursor = page.next;
    }
    return false;
  }

  /** The fee each refunded sale was charged: its SALE line on the master, where it has one. */
  private async saleFees(ts: TransactionWithoutBuyer[]): Promise<Map<string, { feePaise: number; taxPaise: number }>> {
    if (ts.length === 0) return new Map();
    const ids = ts.map((t) => settlementLineId('SALE', t.txnId, t.split?.masterMerchantIdentifier ?? t.merchantIdentifier));
    const found = await this.lines.find({ _id: { $in: ids } }, { projection: { txnId: 1, feePaise: 1, taxPaise: 1 } }).toArray();
    return new Map(found.map((l) => [l.txnId, { feePaise: l.feePaise, taxPaise: l.taxPaise }]));
  }

  /** A page of the merchant's transactions by a date field in a range, in (date, txnId) order, after the cursor. */
  private async page(
    field: 'successAt' | 'adjustedAt',
    range: { $gte: Date; $lt: Date },
    s: ClaimScope,
    cursor: PageCursor | null,
    limit: number,
    extra: Filter<Document>,
  ): Promise<{ rows: TransactionWithoutBuyer[]; next: PageCursor | null }> {
    const at = cursor ? new Date(cursor.at) : null;
    const start = at && at > range.$gte ? at : range.$gte;
    // The range starts at the cursor's date (the store seeks there in the index); its ties by txnId.
    const after =
      at && cursor && 'txnId' in cursor ? { $and: [{ $or: [{ [field]: { $gt: at } }, { txnId: { $gt: cursor.txnId } }] }] } : {};
    const skip = cursor && 'ties' in cursor ? cursor.ties : 0;
    const rows = await this.transactions.findMatching(
      { merchantIdentifier: s.merchantIdentifier, [field]: { $gte: start, $lt: range.$lt }, ...extra, ...after },
      { [field]: 1, txnId: 1 },
      limit + skip,
    );
    const fresh = rows.slice(skip);
    if (fresh.length < limit) return { rows: fresh, next: null };
    const last = fresh[fresh.length - 1];
    return { rows: fresh, next: { at: (last[field] as Date).toISOString(), txnId: last.txnId } };
  }

  /** Conditional updates, CLAIMS_PER_COMMAND a round trip, each after the guard; returns how many applied. */
  private async conditionalClaims(
    claims: { filter: Filter<Document>; set: Record<string, string> }[],
    guard: ClaimGuard,
  ): Promise<number> {
    let modified = 0;
    for (let i = 0; i < claims.length; i += CLAIMS_PER_COMMAND) {
      await guard();
      const result = await this.txns.bulkWrite(
        claims
          .slice(i, i + CLAIMS_PER_COMMAND)
          .map((c) => ({ updateOne: { filter: c.filter, update: { $set: c.set, $inc: { version: 1 } } } })),
        { ordered: false },
      );
      modified += result.modifiedCount;
    }
    return modified;
  }

  /** Conditional claims; returns the keys (txnId or `key`) of those this settlement holds afterwards. */
  private async claim(
    claims: { filter: Filter<Document>; set: Record<string, string>; key?: string }[],
    guard: ClaimGuard,
  ): Promise<Set<string>> {
    if (claims.length === 0) return new Set();
    const modified = await this.conditionalClaims(claims, guard);
    if (modified === claims.length) return new Set(claims.map((c) => c.key ?? (c.filter.txnId as string)));
    // Some were claimed meanwhile by another settlement: read back which are ours.
    const ours = new Set<string>();
    const again = await this.transactions.findByTxnIds([...new Set(claims.map((c) => c.filter.txnId as string))]);
    const byTxn = new Map(again.map((t) => [t.txnId, t]));
    for (const c of claims) {
      const t = byTxn.get(c.filter.txnId as string);
      const [path, value] = Object.entries(c.set)[0];
      if (t && valueAt(t, path) === value) ours.add(c.key ?? t.txnId);
    }
    return ours;
  }

  private async insertLines(lines: SettlementLine[]): Promise<void> {
    if (lines.length === 0) return;
    try {
      await this.lines.insertMany(lines, { ordered: false });
    } catch (e) {
      const errors = (e as { writeErrors?: { code?: number }[] | { code?: number } }).writeErrors;
      const list = Array.isArray(errors) ? errors : errors ? [errors] : [];
      // A line inserted by an earlier attempt of this page: the same line, kept.
      if (list.length === 0 || list.some((w) => w.code !== 11000)) throw e;
    }
  }
}

/** Where a split share's line for another merchant waits until that merchant's next settlement adopts it. */
export const pendingLineSettlementId = (merchantIdentifier: string) => `pending:${merchantIdentifier}`;

interface Adjustment {
  kind: 'refund' | 'chargeback' | 'reversal';
  t: TransactionWithoutBuyer;
  index: number;
  key: string;
  claimedBy: string | undefined;
  unclaimed: Filter<Document>;
  set: (settlementId: string) => Record<string, string>;
}

/** The refunds, chargeback and revert of an order that are due before `to` and may be this settlement's. */
function adjustmentsDue(t: TransactionWithoutBuyer, to: Date, ours: (id: string | undefined) => boolean): Adjustment[] {
  const due: Adjustment[] = [];
  t.refunds.forEach((r, index) => {
    if (r.status !== 'SUCCESS' || !r.completedAt || r.completedAt >= to || !ours(r.settlementId)) return;
    const path = `refunds.${index}.settlementId`;
    due.push({
      kind: 'refund',
      t,
      index,
      key: `refund:${t.txnId}:${index}`,
      claimedBy: r.settlementId,
      unclaimed: { [`refunds.${index}.merchantRefId`]: r.merchantRefId, [path]: { $exists: false } },
      set: (id) => ({ [path]: id }),
    });
  });
  const cb = t.chargeback;
  if (cb && cb.raisedAt < to && ours(cb.settlementId))
    due.push({
      kind: 'chargeback',
      t,
      index: 0,
      key: `chargeback:${t.txnId}`,
      claimedBy: cb.settlementId,
      unclaimed: { chargeback: { $exists: true }, 'chargeback.settlementId': { $exists: false } },
      set: (id) => ({ 'chargeback.settlementId': id }),
    });
  if (cb?.revertedAt && cb.revertedAt < to && ours(cb.reversalSettlementId))
    due.push({
      kind: 'reversal',
      t,
      index: 0,
      key: `reversal:${t.txnId}`,
      claimedBy: cb.reversalSettlementId,
      unclaimed: { 'chargeback.revertedAt': { $ne: null }, 'chargeback.reversalSettlementId': { $exists: false } },
      set: (id) => ({ 'chargeback.reversalSettlementId': id }),
    });
  return due;
}

function valueAt(t: TransactionWithoutBuyer, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), t);
}
