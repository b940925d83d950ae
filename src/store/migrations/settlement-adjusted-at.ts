import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';

/** Orders updated per round trip. */
const BATCH = 500;

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
