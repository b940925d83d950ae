import type { Db } from 'mongodb';
import { MERCHANTS, type MerchantDoc } from '../merchant-doc';
import type { MerchantVault } from '../merchant-vault';

/**
 * Rewrites secrets stored in the first format (v1: the master key itself, no associated data)
 * as v2 (the derived key, bound to merchant and field). Idempotent, at start-up; each merchant is
 * replaced only if it still holds what was read, so two processes migrating at once agree.
 * Returns how many merchants it rewrote.
 */
export async function migrateSecretsAtRest(db: Db, vault: MerchantVault): Promise<number> {
  const merchants = db.collection<MerchantDoc>(MERCHANTS);
  const legacy = await merchants
    .find({
      $or: [
        { secretKeyEncrypted: /^v1\./ },
        { 'encryptionKeys.privateKeyEncrypted': /^v1\./ },
        { 'webhookSigningSecrets.secretEncrypted': /^v1\./ },
      ],
    })
    .toArray();
  let rewritten = 0;
  for (const doc of legacy) {
    const result = await merchants.updateOne(
      {
        _id: doc._id,
        secretKeyEncrypted: doc.secretKeyEncrypted,
        encryptionKeys: doc.encryptionKeys,
        webhookSigningSecrets: doc.webhookSigningSecrets ?? { $exists: false },
      },
      { $set: vault.resealed(doc) },
    );
    rewritten += result.modifiedCount;
  }
  return rewritten;
}
