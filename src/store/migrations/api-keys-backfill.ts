import type { Db } from 'mongodb';
import { API_KEYS, type ApiKeyDoc } from '../api-key-repository';
import { MERCHANTS, type MerchantDoc } from '../merchant-doc';
import { isDuplicateKeyError } from '../mongo';

/** Gives every merchant stored before api_keys existed its key entry (idempotent, at start-up). */
export async function backfillApiKeys(db: Db): Promise<void> {
  const merchants = await db
    .collection<MerchantDoc>(MERCHANTS)
    .find({}, { projection: { apiKeyHash: 1 } })
    .toArray();
  const apiKeys = db.collection<ApiKeyDoc>(API_KEYS);
  const known = new Set((await apiKeys.find({}, { projection: { _id: 1 } }).toArray()).map((k) => k._id));
  const missing = merchants.filter((m) => !known.has(m.apiKeyHash));
  if (missing.length === 0) return;
  // Another process starting at the same time may insert some of them first.
  await apiKeys
    .insertMany(
      missing.map((m) => ({ _id: m.apiKeyHash, merchantIdentifier: m._id })),
      { ordered: false },
    )
    .catch((e: unknown) => {
      if (!isDuplicateKeyError(e)) throw e;
    });
}
