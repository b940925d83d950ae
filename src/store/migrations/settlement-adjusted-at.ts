import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';

/** Orders updated per round trip. */
const BATCH = 500;

/** The start-up migration's marker (`migrations`, src/store/migration-markers.ts): when this release first ran on the store. */
export const ADJUSTED_AT_MARKER = 'settlement-adjusted-at-v1';

/** Orders a merchant's backfill reads per query (by default): one query stays well inside a claim page's heartbeat. */
const MERCHANT_PAGE = 1000;

/** How far another worker's clock may lag the one that ran the start-up backfill. */
const CLOCK_MARGIN_MS = 3_600_000;

/** Far enough for any updatedAt, with the same 13 digits of epoch ms (the embedded store's range pushdown). */
const FAR_FUTURE = new Date('2200-01-01T00:00:00Z');

/**
 * Gives the orders lacking `adjustedAt` (a refund settled SUCCESS, or a chargeback) the field the
 * settlement engine finds their adjustments by (idempotent). Their last write stands for the
 * adjustment's time: never earlier than it, so a settlement whose window the adjustment falls in
 * still reads the order. Run over the store once at start-up (orders stored before the field
 * existed), and by each settlement over its merchant's orders updated in its lookback (`within`,
 * the `merchant_updated` index): an old worker still running during a rolling deploy writes
 * refunds without the field. `progress` is awaited after each write (a settlement's claim guard). Returns how many it set.
 */
export async function backfillAdjustedAt(
  db: Db,
  within: Document = {},
  progress: () => unknown = () => undefined,
): Promise<number> {
  const txns = db.collection('transactions');
  let set = 0;
  // Two reads (the first from the refunds.status index), not an $or the store would scan for.
  for (const filter of [{ 'refunds.status': 'SUCCESS' }, { chargeback: { $exists: true } }]) {
    const cursor = txns.find({ ...within, ...filter, adjustedAt: { $exists: false } }, { projection: { updatedAt: 1 } });
    let batch: AnyBulkWriteOperation<Document>[] = [];
    const flush = async () => {
      if (batch.length > 0) set += (await txns.bulkWrite(batch, { ordered: false })).modifiedCount;
      await progress();
      batch = [];
    };
    for await (const doc of cursor) {
      batch.push({
        updateOne: { filter: { _id: doc._id, adjustedAt: { $exists: false } }, update: { $set: { adjustedAt: doc.updatedAt } } },
      });
      if (batch.length === BATCH) await flush();
    }
    await flush();
  }
  return set;
}

/** Where a merchant's backfill goes on: after the order written at `at` (ISO) with `txnId`. */
export interface BackfillPosition {
  at: string;
  txnId: string;
}

/** What a merchant's backfill reads of an order. */
interface WrittenOrder {
  _id: string;
  txnId: string;
  updatedAt: Date;
  adjustedAt?: Date;
  refunds?: { status?: string }[];
  chargeback?: unknown;
}

/**
 * A settlement's share of the backfill: the merchant's orders written since `since` that lack
 * `adjustedAt`, filled in, but only when this release first ran on the store (the start-up
 * migration's marker) at or after `since`. Only then can a worker of the previous release, which
 * writes refunds without the field, have adjusted an order in the settlement's lookback after the
 * start-up backfill; a store upgraded before the lookback began (or never upgraded: no marker) is
 * not read at all, so a settlement's adjustments cost its adjustments, never its merchant's orders.
 * Inside that window it reads the merchant's writes since the start-up backfill began (less a clock
 * margin: it read every order written before), in pages of MERCHANT_PAGE in (updatedAt, txnId)
 * order from `merchant_updated`, with no condition the store must check document by document (one
 * that matched nothing would read every write in one query), and calls `progress` after each page
 * (a settlement's claim guard and heartbeat). With `pages` it stops after that many and returns
 * where to go on (`next`, given back as `after`), so no one call grows with the merchant's volume.
 */
export async function backfillMerchantAdjustedAt(
  db: Db,
  merchantIdentifier: string,
  since: Date,
  progress: () => unknown = () => undefined,
  o: { after?: BackfillPosition | null; pages?: number; pageSize?: number } = {},
): Promise<{ set: number; next: BackfillPosition | null }> {
  const marker = await db.collection<{ _id: string; finishedAt: Date }>('migrations').findOne({ _id: ADJUSTED_AT_MARKER });
  if (!marker || marker.finishedAt < since) return { set: 0, next: null };
  const from = new Date(Math.max(since.getTime(), marker.finishedAt.getTime() - CLOCK_MARGIN_MS));
  const txns = db.collection<WrittenOrder>('transactions');
  let set = 0;
  let after = o.after ? { at: new Date(o.after.at), txnId: o.after.txnId } : null;
  for (let pages = 1; ; pages++) {
    const keyset = after ? { $and: [{ $or: [{ updatedAt: { $gt: after.at } }, { txnId: { $gt: after.txnId } }] }] } : {};
    const page: WrittenOrder[] = await txns
      .find(
        { merchantIdentifier, updatedAt: { $gte: after?.at ?? from, $lt: FAR_FUTURE }, ...keyset },
        { projection: { txnId: 1, updatedAt: 1, adjustedAt: 1, refunds: 1, chargeback: 1 } },
      )
      .sort({ updatedAt: 1, txnId: 1 })
      .limit(o.pageSize ?? MERCHANT_PAGE)
      .toArray();
    const lacking = page.filter(
      (d) => d.adjustedAt === undefined && (d.chargeback !== undefined || (d.refunds ?? []).some((r) => r.status === 'SUCCESS')),
    );
    if (lacking.length > 0)
      set += (
        await txns.bulkWrite(
          lacking.map((d) => ({
            updateOne: { filter: { _id: d._id, adjustedAt: { $exists: false } }, update: { $set: { adjustedAt: d.updatedAt } } },
          })),
          { ordered: false },
        )
      ).modifiedCount;
    await progress();
    if (page.length < (o.pageSize ?? MERCHANT_PAGE)) return { set, next: null };
    const last = page[page.length - 1];
    after = { at: last.updatedAt, txnId: last.txnId };
    if (pages === o.pages) return { set, next: { at: after.at.toISOString(), txnId: after.txnId } };
  }
}
