import { decryptAtRest, encryptAtRest, isLegacyAtRest, type SecretContext } from '../domain/secrets';
import type { Merchant, WebhookSigningSecret } from '../domain/merchant';
import type { MerchantDoc, StoredSigningSecret } from './merchant-doc';

/*
 * The merchant's secrets at rest: each sealed with the master key and bound to its merchant and
 * field (src/domain/secrets.ts), so a ciphertext copied to another merchant or field does not open.
 */

const secretKeyField = (merchantIdentifier: string): SecretContext => ({ merchantIdentifier, field: 'secretKey' });
const privateKeyField = (merchantIdentifier: string, keyId: string): SecretContext => ({
  merchantIdentifier,
  field: `encryptionKeys.${keyId}.privateKey`,
});
const signingSecretField = (merchantIdentifier: string): SecretContext => ({ merchantIdentifier, field: 'webhookSigningSecret' });

export class MerchantVault {
  constructor(private readonly masterKey: string) {}

  sealSecretKey(merchantIdentifier: string, secretKey: string): string {
    return encryptAtRest(this.masterKey, secretKey, secretKeyField(merchantIdentifier));
  }

  sealPrivateKey(merchantIdentifier: string, keyId: string, privateKeyPem: string): string {
    return encryptAtRest(this.masterKey, privateKeyPem, privateKeyField(merchantIdentifier, keyId));
  }

  openPrivateKey(merchantIdentifier: string, keyId: string, sealed: string): string {
    return decryptAtRest(this.masterKey, sealed, privateKeyField(merchantIdentifier, keyId));
  }

  sealSigningSecret(merchantIdentifier: string, secret: string, createdAt: Date): StoredSigningSecret {
    return {
      secretEncrypted: encryptAtRest(this.masterKey, secret, signingSecretField(merchantIdentifier)),
      createdAt,
      retiresAt: null,
    };
  }

  /** The signing secrets still in use at `at`, opened, newest first. */
  signingSecretsInUse(merchantIdentifier: string, stored: StoredSigningSecret[], at: Date): WebhookSigningSecret[] {
    return stored
      .filter((s) => s.retiresAt === null || s.retiresAt.getTime() > at.getTime())
      .map((s) => ({
        secret: decryptAtRest(this.masterKey, s.secretEncrypted, signingSecretField(merchantIdentifier)),
        createdAt: s.createdAt,
        retiresAt: s.retiresAt,
      }));
  }

  /** Every secret of a stored merchant in today's format (v2); those in the first format (v1) sealed again. */
  resealed(doc: MerchantDoc): Pick<MerchantDoc, 'secretKeyEncrypted' | 'encryptionKeys' | 'webhookSigningSecrets'> {
    const again = (stored: string, context: SecretContext) =>
      isLegacyAtRest(stored) ? encryptAtRest(this.masterKey, decryptAtRest(this.masterKey, stored, context), context) : stored;
    return {
      secretKeyEncrypted: again(doc.secretKeyEncrypted, secretKeyField(doc._id)),
      encryptionKeys: doc.encryptionKeys.map((k) => ({
        ...k,
        privateKeyEncrypted: again(k.privateKeyEncrypted, privateKeyField(doc._id, k.keyId)),
      })),
      ...(doc.webhookSigningSecrets
        ? {
            webhookSigningSecrets: doc.webhookSigningSecrets.map((w) => ({
              ...w,
              secretEncrypted: again(w.secretEncrypted, signingSecretField(doc._id)),
            })),
          }
        : {}),
    };
  }

  /** The merchant as the API and workers use it: its secrets opened, in memory only. */
  open(doc: MerchantDoc): Merchant {
    return {
      merchantIdentifier: doc._id,
      name: doc.name,
      webhookUrl: doc.webhookUrl,
      secretKey: decryptAtRest(this.masterKey, doc.secretKeyEncrypted, secretKeyField(doc._id)),
      previousSecretKeys: (doc.previousSecretKeys ?? []).map((p) => ({
        secretKey: decryptAtRest(this.masterKey, p.secretKeyEncrypted, secretKeyField(doc._id)),
        retiresAt: p.retiresAt,
      })),
      autoRefund: doc.autoRefund,
      settlementWebhook: doc.settlementWebhook ?? false,
      webhookFormat: doc.webhookFormat ?? 'form',
      defaultReturnUrl: doc.defaultReturnUrl ?? null,
      // Keys are appended: of two made in the same millisecond the later one is the newer.
      encryptionKeys: [...doc.encryptionKeys]
        .reverse()
        .filter((k) => !k.retiredAt)
        .map((k) => ({ keyId: k.keyId, publicKeyPem: k.publicKeyPem, createdAt: k.createdAt }))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
      createdAt: doc.createdAt,
    };
  }
}
