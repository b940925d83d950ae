import type { Collection } from 'mongodb';
import type { MerchantDoc, StoredSigningSecret } from '../merchant-doc';

/**
 * Gives every merchant stored without a webhook signing secret (by a build before merchants got one
 * at creation) its first, at each start-up, so that reading a merchant's secrets never writes. Each
 * write is conditional on the merchant still having none, so two processes starting at once give one.
 * Returns how many merchants got one.
 */
export async function backfillWebhookSigningSecrets(
  merchants: Collection<MerchantDoc>,
  newSecretFor: (merchantIdentifier: string) => StoredSigningSecret,
): Promise<number> {
  const missing = await merchants.find({ webhookSigningSecrets: { $exists: false } }, { projection: { _id: 1 } }).toArray();
  let given = 0;
  for (const { _id } of missing) {
    const r = await merchants.updateOne(
      { _id, webhookSigningSecrets: { $exists: false } },
      { $set: { webhookSigningSecrets: [newSecretFor(_id)] } },
    );
    given += r.modifiedCount;
  }
  return given;
}
