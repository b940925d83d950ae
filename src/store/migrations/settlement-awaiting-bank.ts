import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';

/** Settlements updated per round trip. */
const BATCH = 500;

/**
 * Marks the settlements whose payout was requested before `awaitingBankSince` existed as awaiting
 * the bank (since `payoutRequestedAt`, else `createdAt`): the bank may have been asked, so a hold
 * never moves them back to `held` and a 4xx to their next request is no refusal. Idempotent, once
 * per store at start-up. Returns how many it set.
 */
export async function backfillAwaitingBank(db: Db): Promise<number> {
  const settlements = db.collection('settlements');
  const filter = { state: 'payout_requested', awaitingBankSince: { $exists: false } };
  const cursor = settlements.find(filter, { projection: { payoutRequestedAt: 1, createdAt: 1 } });
  let set = 0;
  let batch: AnyBulkWriteOperation<Document>[] = [];
  const flush = async () => {
    if (batch.length > 0) set += (await settlements.bulkWrite(batch, { ordered: false })).modifiedCount;
    batch = [];
  };
  for await (const s of cursor) {
    const since = (s.payoutRequestedAt as Date | undefined) ?? (s.createdAt as Date);
    batch.push({ updateOne: { filter: { _id: s._id, ...filter }, update: { $set: { awaitingBankSince: since } } } });
    if (batch.length === BATCH) await flush();
  }
  await flush();
  return set;
}
