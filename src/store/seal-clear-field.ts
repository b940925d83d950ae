import type { Collection, Document } from 'mongodb';

/** Where a clear value was found: what its sealed form is bound to. */
export interface ClearValueAt {
  _id: string;
  merchantIdentifier: string;
}

/**
 * The start-up migration of one field stored in clear before it was encrypted: every document still
 * holding `field` gets what `sealed` makes of the value, and loses the clear field, only if it
 * still holds the value read (so processes migrating at once agree; idempotent). Returns how many
 * documents it rewrote.
 */
export async function sealClearField(
  collection: Collection<Document>,
  field: string,
  sealed: (at: ClearValueAt, clear: string) => Document,
): Promise<number> {
  let rewritten = 0;
  // A cursor: a large collection is read in batches, never whole into memory.
  for await (const doc of collection.find(
    { [field]: { $exists: true } },
    { projection: { _id: 1, merchantIdentifier: 1, [field]: 1 } },
  )) {
    const value: unknown = doc[field];
    if (typeof value !== 'string') continue;
    const at = { _id: String(doc._id), merchantIdentifier: String(doc.merchantIdentifier) };
    const r = await collection.updateOne({ _id: doc._id, [field]: value }, { $set: sealed(at, value), $unset: { [field]: '' } });
    rewritten += r.modifiedCount;
  }
  return rewritten;
}
