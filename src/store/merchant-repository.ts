import type { Collection, Db } from 'mongodb';
import type { ApiKeyInfo, Merchant, MerchantSettings, WebhookSigningSecret } from '../domain/merchant';
import { newWebhookSigningSecret } from '../domain/standard-webhooks';
import { ApiKeyRepository } from './api-key-repository';
import { MERCHANTS, type MerchantDoc } from './merchant-doc';
import { MerchantVault } from './merchant-vault';
import { backfillApiKeys } from './migrations/api-keys-backfill';
import { migrateSecretsAtRest } from './migrations/secrets-at-rest-v2';
import { backfillWebhookSigningSecrets } from './migrations/webhook-signing-secrets';
import { isDuplicateKeyError } from './mongo';

export type { MerchantSettings };

export interface NewMerchant {
  merchantIdentifier: string;
  name: string;
  webhookUrl: string | null;
  secretKey: string;
  apiKeyHash: string;
  encryptionKey: { keyId: string; publicKeyPem: string; privateKeyPem: string };
  createdAt: Date;
}

const CACHE_MAX_ENTRIES = 10_000;

/**
 * Merchants (the `merchants` collection, secrets sealed by MerchantVault) and their API keys
 * (ApiKeyRepository): the one door to both, so a key always opens a merchant as stored.
 */
export class MerchantRepository {
  private readonly merchants: Collection<MerchantDoc>;
  private readonly apiKeys: ApiKeyRepository;
  private readonly vault: MerchantVault;
  // Every authenticated request needs its merchant: a cache of decrypted merchants saves the whole
  // document and an AES decryption per request. An entry is used only while the stored document's
  // `version` (one read by _id, projected) is the one it was opened from; every change of what a
  // Merchant holds bumps it, so a rotated, revoked or retired key or a new setting is seen by every
  // replica at the next request. Unknown merchants are never cached.
  private readonly cache = new Map<string, { merchant: Merchant; version: number; expiresAt: number }>();

  constructor(
    private readonly db: Db,
    masterKey: string,
    private readonly cacheTtlMs = 0,
  ) {
    this.merchants = db.collection<MerchantDoc>(MERCHANTS);
    this.apiKeys = new ApiKeyRepository(db);
    this.vault = new MerchantVault(masterKey);
  }

  /** Stores a new merchant; false (nothing stored) when its identifier is taken. */
  async create(m: NewMerchant): Promise<boolean> {
    const inserted = await this.merchants
      .insertOne({
        _id: m.merchantIdentifier,
        name: m.name,
        webhookUrl: m.webhookUrl,
        secretKeyEncrypted: this.vault.sealSecretKey(m.merchantIdentifier, m.secretKey),
        apiKeyHash: m.apiKeyHash,
        encryptionKeys: [
          {
            keyId: m.encryptionKey.keyId,
            publicKeyPem: m.encryptionKey.publicKeyPem,
            privateKeyEncrypted: this.vault.sealPrivateKey(
              m.merchantIdentifier,
              m.encryptionKey.keyId,
              m.encryptionKey.privateKeyPem,
            ),
            createdAt: m.createdAt,
          },
        ],
        autoRefund: false,
        webhookSigningSecrets: [this.vault.sealSigningSecret(m.merchantIdentifier, newWebhookSigningSecret(), m.createdAt)],
        createdAt: m.createdAt,
      })
      .then(
        () => true,
        (e: unknown) => {
          if (isDuplicateKeyError(e)) return false;
          throw e;
        },
      );
    if (!inserted) return false;
    // Written second: a crash in between leaves a merchant whose key was never handed out.
    await this.apiKeys.addInitial(m.apiKeyHash, m.merchantIdentifier);
    return true;
  }

  /** Start-up migration (src/store/migrations/api-keys-backfill.ts). */
  async backfillApiKeys(): Promise<void> {
    await backfillApiKeys(this.db);
  }

  /** Start-up migration (src/store/migrations/secrets-at-rest-v2.ts): how many merchants it rewrote. */
  async migrateSecretsAtRest(): Promise<number> {
    // Resealed, not changed: a cached merchant (its keys in clear) stays right, its version unbumped.
    return migrateSecretsAtRest(this.db, this.vault);
  }

  /**
   * The merchant as stored now, past this process's cache: for what must carry the key in force even
   * when another process (an API replica) rotated it a moment ago, such as a webhook attempt's checksum.
   */
  async findFresh(merchantIdentifier: string): Promise<Merchant | null> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    return doc ? this.vault.open(doc) : null;
  }

  /** Whether the merchant opted in to the `settlement.processed` webhook: the flag alone, as stored now (no secret opened). */
  async settlementWebhookOptedIn(merchantIdentifier: string): Promise<boolean> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { settlementWebhook: 1 } });
    return doc?.settlementWebhook === true;
  }

  /** The merchant as stored now: from the cache when the stored version is the cached one's. */
  async findById(merchantIdentifier: string): Promise<Merchant | null> {
    const cached = this.cache.get(merchantIdentifier);
    if (cached && cached.expiresAt > Date.now()) {
      const stored = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { version: 1 } });
      if (!stored) return null;
      if ((stored.version ?? 0) === cached.version) return cached.merchant;
    }
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    if (!doc) return null;
    const merchant = this.vault.open(doc);
    if (this.cacheTtlMs > 0) {
      this.cache.delete(merchantIdentifier);
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(merchantIdentifier, { merchant, version: doc.version ?? 0, expiresAt: Date.now() + this.cacheTtlMs });
    }
    return merchant;
  }

  /** The merchant of an unrevoked API key; notes the key's use (at most once a minute) when `usedAt` is given. */
  async findByApiKeyHash(apiKeyHash: string, usedAt?: Date): Promise<Merchant | null> {
    const merchantIdentifier = await this.apiKeys.merchantOf(apiKeyHash, usedAt);
    return merchantIdentifier === null ? null : this.findById(merchantIdentifier);
  }

  /** Another API key for the merchant (its hash only is stored); false for an unknown merchant. */
  async addApiKey(merchantIdentifier: string, apiKeyHash: string, label: string, now: Date): Promise<boolean> {
    if (!(await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { _id: 1 } }))) return false;
    await this.apiKeys.add(merchantIdentifier, apiKeyHash, label, now);
    return true;
  }

  /** The merchant's API keys, revoked ones too, oldest first; null for an unknown merchant. */
  async listApiKeys(merchantIdentifier: string): Promise<ApiKeyInfo[] | null> {
    const merchant = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { createdAt: 1 } });
    return merchant ? this.apiKeys.list(merchantIdentifier, merchant.createdAt) : null;
  }

  /** Revokes one of the merchant's keys (at once, on every replica); false when the merchant has no such key. */
  async revokeApiKey(merchantIdentifier: string, keyId: string, now: Date): Promise<boolean> {
    return this.apiKeys.revoke(merchantIdentifier, keyId, now);
  }

  /** Applies an operator's settings (every replica reads them at its next request); null when there is no such merchant. */
  async updateSettings(merchantIdentifier: string, settings: MerchantSettings): Promise<Merchant | null> {
    const doc = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier },
      { $set: settings, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
    return doc ? this.vault.open(doc) : null;
  }

  /**
   * The merchant's webhook signing secrets still in use at `at`, newest first (two during a
   * rotation's overlap); a merchant without one gets one now. Null for an unknown merchant.
   */
  async webhookSigningSecrets(merchantIdentifier: string, at: Date): Promise<WebhookSigningSecret[] | null> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { webhookSigningSecrets: 1 } });
    return doc ? this.vault.signingSecretsInUse(merchantIdentifier, doc.webhookSigningSecrets ?? [], at) : null;
  }

  /**
   * What a webhook attempt signs with, as stored now (past this process's cache, as findFresh):
   * the merchant (its secret key for the checksum) and its signing secrets in use at `at`, from one
   * read of the merchant's document. Null for an unknown merchant.
   */
  async webhookSigner(
    merchantIdentifier: string,
    at: Date,
  ): Promise<{ merchant: Merchant; secrets: WebhookSigningSecret[] } | null> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    if (!doc) return null;
    const secrets = this.vault.signingSecretsInUse(merchantIdentifier, doc.webhookSigningSecrets ?? [], at);
    return { merchant: this.vault.open(doc), secrets };
  }

  /** Start-up backfill (src/store/migrations/webhook-signing-secrets.ts): how many merchants got their first signing secret. */
  async backfillWebhookSigningSecrets(at: Date): Promise<number> {
    return backfillWebhookSigningSecrets(this.merchants, (merchantIdentifier) =>
      this.vault.sealSigningSecret(merchantIdentifier, newWebhookSigningSecret(), at),
    );
  }

  /**
   * A new signing secret; the ones in use stay in use for `overlapMs` more (both signatures are
   * sent meanwhile), those already retired are dropped. Conditional on the newest secret read (its
   * ciphertext is unique), so two rotations at once cannot drop the one the other handed out.
   * Returns the secrets now in use, this rotation's first; null for an unknown merchant, false
   * when another change won the race (read again and retry: usecases/merchant-keys.ts).
   */
  async rotateWebhookSigningSecret(
    merchantIdentifier: string,
    overlapMs: number,
    now: Date,
  ): Promise<WebhookSigningSecret[] | null | false> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { webhookSigningSecrets: 1 } });
    if (!doc) return null;
    const stored = doc.webhookSigningSecrets ?? [];
    const retiresAt = new Date(now.getTime() + overlapMs);
    const kept = stored
      .filter((s) => s.retiresAt === null || s.retiresAt.getTime() > now.getTime())
      .map((s) => ({ ...s, retiresAt: s.retiresAt && s.retiresAt < retiresAt ? s.retiresAt : retiresAt }));
    const updated = await this.merchants.findOneAndUpdate(
      {
        _id: merchantIdentifier,
        // A merchant stored without one (by a build before secrets were given at creation) gets its first.
        ...(stored[0]
          ? { 'webhookSigningSecrets.0.secretEncrypted': stored[0].secretEncrypted }
          : { webhookSigningSecrets: { $exists: false } }),
      },
      {
        $set: {
          webhookSigningSecrets: [this.vault.sealSigningSecret(merchantIdentifier, newWebhookSigningSecret(), now), ...kept],
        },
      },
      { returnDocument: 'after' }, // no projection: FerretDB's findAndModify has none
    );
    return updated ? this.vault.signingSecretsInUse(merchantIdentifier, updated.webhookSigningSecrets ?? [], now) : false;
  }

  /** The RSA private key (PEM) of one of the merchant's encryption keys, for decrypting payerVpa. */
  async privateKeyPem(merchantIdentifier: string, keyId: string): Promise<string | null> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { encryptionKeys: 1 } });
    const key = doc?.encryptionKeys.find((k) => k.keyId === keyId && !k.retiredAt);
    return key ? this.vault.openPrivateKey(merchantIdentifier, keyId, key.privateKeyEncrypted) : null;
  }

  /**
   * A new secret key; the current one (and any still in its overlap) keeps verifying checksums until
   * `now + overlapMs`. Conditional on the key read, so two rotations at once cannot lose one. Null
   * for an unknown merchant, false when another rotation won the race.
   */
  async rotateSecretKey(
    merchantIdentifier: string,
    newSecretKey: string,
    overlapMs: number,
    now: Date,
  ): Promise<Merchant | null | false> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    if (!doc) return null;
    // Each rotation's end of overlap names its previous key (revokePreviousSecretKeys): never one
    // an earlier rotation reported, even for two rotations in the same millisecond.
    let retiresAt = new Date(now.getTime() + overlapMs);
    while ((doc.previousSecretKeys ?? []).some((p) => p.retiresAt.getTime() === retiresAt.getTime()))
      retiresAt = new Date(retiresAt.getTime() + 1);
    const previous = [
      { secretKeyEncrypted: doc.secretKeyEncrypted, retiresAt },
      ...(doc.previousSecretKeys ?? [])
        .filter((p) => p.retiresAt.getTime() > now.getTime())
        .map((p) => ({ ...p, retiresAt: p.retiresAt < retiresAt ? p.retiresAt : retiresAt })),
    ];
    const updated = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier, secretKeyEncrypted: doc.secretKeyEncrypted },
      {
        $set: {
          secretKeyEncrypted: this.vault.sealSecretKey(merchantIdentifier, newSecretKey),
          previousSecretKeys: previous,
        },
        $inc: { version: 1 },
      },
      { returnDocument: 'after' },
    );
    return updated ? this.vault.open(updated) : false;
  }

  /**
   * Ends the rotation overlap now: the previous secret keys are refused from now on. Only if the
   * newest previous key still accepted is the one accepted until `acceptedUntil` (the rotation the
   * caller saw): a stale request never revokes the key a newer rotation replaced. Null for an
   * unknown merchant, 'unknown' when no such previous key is still accepted, false when a rotation
   * raced this call (read again).
   */
  async revokePreviousSecretKeys(
    merchantIdentifier: string,
    acceptedUntil: Date,
    now: Date,
  ): Promise<Merchant | null | 'unknown' | false> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    if (!doc) return null;
    const newest = (doc.previousSecretKeys ?? []).find((p) => p.retiresAt.getTime() > now.getTime());
    if (newest?.retiresAt.getTime() !== acceptedUntil.getTime()) return 'unknown';
    // Every rotation changes the current key: unchanged, nobody rotated since this read.
    const updated = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier, secretKeyEncrypted: doc.secretKeyEncrypted },
      { $set: { previousSecretKeys: [] }, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
    return updated ? this.vault.open(updated) : false;
  }

  /** A new RSA key pair, handed out from now on; the older keys still decrypt until retired. Null for an unknown merchant. */
  async addEncryptionKey(
    merchantIdentifier: string,
    key: { keyId: string; publicKeyPem: string; privateKeyPem: string },
    now: Date,
  ): Promise<Merchant | null> {
    const updated = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier },
      {
        $push: {
          encryptionKeys: {
            keyId: key.keyId,
            publicKeyPem: key.publicKeyPem,
            privateKeyEncrypted: this.vault.sealPrivateKey(merchantIdentifier, key.keyId, key.privateKeyPem),
            createdAt: now,
            retiredAt: null,
          },
        },
        $inc: { version: 1 },
      },
      { returnDocument: 'after' },
    );
    return updated ? this.vault.open(updated) : null;
  }

  /**
   * Retires one of the merchant's RSA keys: payerVpa encrypted with it is refused from now on. The
   * newest key cannot be retired (the merchant would have none). 'unknown' for no such merchant or key.
   * Writes only that key's `retiredAt`, by its place in the array (keys are only ever appended),
   * so a key added or another retired meanwhile is kept as the other change left it.
   */
  async retireEncryptionKey(merchantIdentifier: string, keyId: string, now: Date): Promise<Merchant | 'unknown' | 'newest'> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    const place = doc ? doc.encryptionKeys.findIndex((k) => k.keyId === keyId) : -1;
    if (!doc || place < 0) return 'unknown';
    if (this.vault.open(doc).encryptionKeys[0]?.keyId === keyId) return 'newest';
    const updated = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier, [`encryptionKeys.${place}.keyId`]: keyId, [`encryptionKeys.${place}.retiredAt`]: null },
      { $set: { [`encryptionKeys.${place}.retiredAt`]: now }, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
    if (updated) return this.vault.open(updated);
    // Retired already (by a concurrent call): the same answer as retiring it.
    const again = await this.merchants.findOne({ _id: merchantIdentifier });
    return again?.encryptionKeys[place]?.keyId === keyId && again.encryptionKeys[place]?.retiredAt
      ? this.vault.open(again)
      : 'unknown';
  }
}
