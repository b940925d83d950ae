import type { Collection, Db } from 'mongodb';
import { decryptAtRest, encryptAtRest, isLegacyAtRest, type SecretContext } from '../domain/secrets';
import { newWebhookSigningSecret } from '../domain/standard-webhooks';
import { isDuplicateKeyError } from './mongo';
import type { Merchant, WebhookFormat } from '../domain/merchant';

interface MerchantDoc {
  _id: string;
  name: string;
  webhookUrl: string | null;
  secretKeyEncrypted: string;
  /** After a rotation: the keys replaced, each still verifying checksums until its retiresAt. */
  previousSecretKeys?: { secretKeyEncrypted: string; retiresAt: Date }[];
  apiKeyHash: string;
  /** Newest first after a rotation; `retiredAt` set: it no longer decrypts (absent: in use). */
  encryptionKeys: {
    keyId: string;
    publicKeyPem: string;
    privateKeyEncrypted: string;
    createdAt: Date;
    retiredAt?: Date | null;
  }[];
  autoRefund: boolean;
  /** Absent on merchants stored before it existed: form. */
  webhookFormat?: WebhookFormat;
  /**
   * Standard Webhooks signing secrets, newest first, encrypted at rest. One, or during a rotation's
   * overlap the new one and the one it replaces (until its `retiresAt`). Absent on merchants stored
   * before it existed: made on first use.
   */
  webhookSigningSecrets?: StoredSigningSecret[];
  /** Where a hosted checkout sends the payer back when its request names no returnUrl (absent: none). */
  defaultReturnUrl?: string | null;
  createdAt: Date;
}

interface StoredSigningSecret {
  secretEncrypted: string;
  createdAt: Date;
  /** Set when a newer secret replaced it: it is still sent until then. */
  retiresAt: Date | null;
}

/** A webhook signing secret as operators see it. */
export interface WebhookSigningSecret {
  secret: string;
  createdAt: Date;
  retiresAt: Date | null;
}

export type { Merchant, WebhookFormat };

/** What an operator may change on a merchant. */
export interface MerchantSettings {
  webhookUrl?: string | null;
  webhookFormat?: WebhookFormat;
  autoRefund?: boolean;
  defaultReturnUrl?: string | null;
}

export interface NewMerchant {
  merchantIdentifier: string;
  name: string;
  webhookUrl: string | null;
  secretKey: string;
  apiKeyHash: string;
  encryptionKey: { keyId: string; publicKeyPem: string; privateKeyPem: string };
  createdAt: Date;
}

/**
 * API keys by their SHA-256 hash as `_id`, so authenticating a key is a primary-key lookup (the
 * embedded store uses no other index). The merchant document keeps the hash too.
 */
interface ApiKeyDoc {
  _id: string;
  merchantIdentifier: string;
  /** Absent on the key made with the merchant (and keys stored before labels existed). */
  label?: string;
  createdAt?: Date;
  /** Written at most once a minute per key (LAST_USED_EVERY_MS), so authentication stays a read. */
  lastUsedAt?: Date | null;
  revokedAt?: Date | null;
}

/** An API key as its merchant sees it: never the key, only its id (a prefix of its hash) and label. */
export interface ApiKeyInfo {
  keyId: string;
  label: string;
  createdAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const LAST_USED_EVERY_MS = 60_000;
/** The public id of a key: the first 16 hex digits of its SHA-256 (no secret, and no extra field to backfill). */
export const apiKeyId = (apiKeyHash: string) => `ak_${apiKeyHash.slice(0, 16)}`;

const CACHE_MAX_ENTRIES = 10_000;

export class MerchantRepository {
  private readonly merchants: Collection<MerchantDoc>;
  private readonly apiKeys: Collection<ApiKeyDoc>;
  // Every authenticated request needs its merchant; a short-lived cache of decrypted merchants
  // saves a store round trip and an AES decryption per request. A change (key rotation) reaches
  // every replica within the TTL; unknown merchants are never cached.
  private readonly cache = new Map<string, { merchant: Merchant; expiresAt: number }>();

  constructor(
    db: Db,
    private readonly masterKey: string,
    private readonly cacheTtlMs = 0,
  ) {
    this.merchants = db.collection<MerchantDoc>('merchants');
    this.apiKeys = db.collection<ApiKeyDoc>('api_keys');
  }

  /** Stores a new merchant; false (nothing stored) when its identifier is taken. */
  async create(m: NewMerchant): Promise<boolean> {
    const inserted = await this.merchants
      .insertOne({
        _id: m.merchantIdentifier,
        name: m.name,
        webhookUrl: m.webhookUrl,
        secretKeyEncrypted: encryptAtRest(this.masterKey, m.secretKey, secretKeyField(m.merchantIdentifier)),
        apiKeyHash: m.apiKeyHash,
        encryptionKeys: [
          {
            keyId: m.encryptionKey.keyId,
            publicKeyPem: m.encryptionKey.publicKeyPem,
            privateKeyEncrypted: encryptAtRest(
              this.masterKey,
              m.encryptionKey.privateKeyPem,
              privateKeyField(m.merchantIdentifier, m.encryptionKey.keyId),
            ),
            createdAt: m.createdAt,
          },
        ],
        autoRefund: false,
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
    await this.apiKeys.insertOne({ _id: m.apiKeyHash, merchantIdentifier: m.merchantIdentifier });
    return true;
  }

  /** Gives every merchant stored before api_keys existed its key entry (idempotent, at start-up). */
  async backfillApiKeys(): Promise<void> {
    const merchants = await this.merchants.find({}, { projection: { apiKeyHash: 1 } }).toArray();
    const known = new Set((await this.apiKeys.find({}, { projection: { _id: 1 } }).toArray()).map((k) => k._id));
    const missing = merchants.filter((m) => !known.has(m.apiKeyHash));
    if (missing.length === 0) return;
    // Another process starting at the same time may insert some of them first.
    await this.apiKeys
      .insertMany(
        missing.map((m) => ({ _id: m.apiKeyHash, merchantIdentifier: m._id })),
        { ordered: false },
      )
      .catch((e: unknown) => {
        if (!isDuplicateKeyError(e)) throw e;
      });
  }

  /**
   * Rewrites secrets stored in the first format (v1: the master key itself, no associated data)
   * as v2 (the derived key, bound to merchant and field). Idempotent, at start-up; each merchant is
   * replaced only if it still holds what was read, so two processes migrating at once agree.
   * Returns how many merchants it rewrote.
   */
  async migrateSecretsAtRest(): Promise<number> {
    const legacy = await this.merchants
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
      const again = (stored: string, context: SecretContext) =>
        isLegacyAtRest(stored) ? encryptAtRest(this.masterKey, decryptAtRest(this.masterKey, stored, context), context) : stored;
      const result = await this.merchants.updateOne(
        {
          _id: doc._id,
          secretKeyEncrypted: doc.secretKeyEncrypted,
          encryptionKeys: doc.encryptionKeys,
          webhookSigningSecrets: doc.webhookSigningSecrets ?? { $exists: false },
        },
        {
          $set: {
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
          },
        },
      );
      rewritten += result.modifiedCount;
    }
    if (rewritten > 0) this.cache.clear();
    return rewritten;
  }

  async findById(merchantIdentifier: string): Promise<Merchant | null> {
    const cached = this.cache.get(merchantIdentifier);
    if (cached && cached.expiresAt > Date.now()) return cached.merchant;
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    if (!doc) return null;
    const merchant = this.toMerchant(doc);
    if (this.cacheTtlMs > 0) {
      this.cache.delete(merchantIdentifier);
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(merchantIdentifier, { merchant, expiresAt: Date.now() + this.cacheTtlMs });
    }
    return merchant;
  }

  /** The merchant of an unrevoked API key; notes the key's use (at most once a minute) when `usedAt` is given. */
  async findByApiKeyHash(apiKeyHash: string, usedAt?: Date): Promise<Merchant | null> {
    const key = await this.apiKeys.findOne({ _id: apiKeyHash });
    if (!key || key.revokedAt) return null;
    if (usedAt && (!key.lastUsedAt || usedAt.getTime() - key.lastUsedAt.getTime() >= LAST_USED_EVERY_MS)) {
      // Conditional, so replicas racing write once; not awaited by the caller's answer beyond this one write.
      await this.apiKeys.updateOne({ _id: apiKeyHash, lastUsedAt: key.lastUsedAt ?? null }, { $set: { lastUsedAt: usedAt } });
    }
    return this.findById(key.merchantIdentifier);
  }

  /** Another API key for the merchant (its hash only is stored); false for an unknown merchant. */
  async addApiKey(merchantIdentifier: string, apiKeyHash: string, label: string, now: Date): Promise<boolean> {
    if (!(await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { _id: 1 } }))) return false;
    await this.apiKeys.insertOne({
      _id: apiKeyHash,
      merchantIdentifier,
      label,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    });
    return true;
  }

  /** The merchant's API keys, revoked ones too, oldest first; null for an unknown merchant. */
  async listApiKeys(merchantIdentifier: string): Promise<ApiKeyInfo[] | null> {
    const merchant = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { createdAt: 1 } });
    if (!merchant) return null;
    const keys = await this.apiKeys.find({ merchantIdentifier }).limit(1000).toArray();
    return keys
      .map((k) => ({
        keyId: apiKeyId(k._id),
        label: k.label ?? 'Initial key',
        createdAt: k.createdAt ?? merchant.createdAt,
        lastUsedAt: k.lastUsedAt ?? null,
        revokedAt: k.revokedAt ?? null,
      }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** Revokes one of the merchant's keys (at once, on every replica); false when the merchant has no such key. */
  async revokeApiKey(merchantIdentifier: string, keyId: string, now: Date): Promise<boolean> {
    const keys = await this.apiKeys
      .find({ merchantIdentifier }, { projection: { _id: 1, revokedAt: 1 } })
      .limit(1000)
      .toArray();
    const key = keys.find((k) => apiKeyId(k._id) === keyId);
    if (!key) return false;
    if (!key.revokedAt) await this.apiKeys.updateOne({ _id: key._id, merchantIdentifier }, { $set: { revokedAt: now } });
    return true;
  }

  /**
   * Applies an operator's settings; null when there is no such merchant. This process's cache
   * forgets the merchant at once; other replicas see the change within MERCHANT_CACHE_SECONDS.
   */
  async updateSettings(merchantIdentifier: string, settings: MerchantSettings): Promise<Merchant | null> {
    this.cache.delete(merchantIdentifier);
    const doc = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier },
      { $set: settings },
      { returnDocument: 'after' },
    );
    return doc ? this.toMerchant(doc) : null;
  }

  /**
   * The merchant's webhook signing secrets still in use at `at`, newest first (two during a
   * rotation's overlap); a merchant without one gets one now. Null for an unknown merchant.
   */
  async webhookSigningSecrets(merchantIdentifier: string, at: Date): Promise<WebhookSigningSecret[] | null> {
    const read = () => this.merchants.findOne({ _id: merchantIdentifier }, { projection: { webhookSigningSecrets: 1 } });
    let doc = await read();
    if (!doc) return null;
    if (!doc.webhookSigningSecrets?.length) {
      // Two callers racing here: the condition lets one write win, both then read it.
      await this.merchants.updateOne(
        { _id: merchantIdentifier, webhookSigningSecrets: { $exists: false } },
        { $set: { webhookSigningSecrets: [this.sealSecret(merchantIdentifier, newWebhookSigningSecret(), at)] } },
      );
      doc = await read();
      if (!doc) return null;
    }
    return this.signingSecretsInUse(merchantIdentifier, doc.webhookSigningSecrets ?? [], at);
  }

  private signingSecretsInUse(merchantIdentifier: string, stored: StoredSigningSecret[], at: Date): WebhookSigningSecret[] {
    return stored
      .filter((s) => s.retiresAt === null || s.retiresAt.getTime() > at.getTime())
      .map((s) => ({
        secret: decryptAtRest(this.masterKey, s.secretEncrypted, signingSecretField(merchantIdentifier)),
        createdAt: s.createdAt,
        retiresAt: s.retiresAt,
      }));
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
    if (!(await this.webhookSigningSecrets(merchantIdentifier, now))) return null; // gives a merchant its first
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { webhookSigningSecrets: 1 } });
    const stored = doc?.webhookSigningSecrets ?? [];
    if (!doc || !stored[0]) return false;
    const retiresAt = new Date(now.getTime() + overlapMs);
    const kept = stored
      .filter((s) => s.retiresAt === null || s.retiresAt.getTime() > now.getTime())
      .map((s) => ({ ...s, retiresAt: s.retiresAt && s.retiresAt < retiresAt ? s.retiresAt : retiresAt }));
    const updated = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier, 'webhookSigningSecrets.0.secretEncrypted': stored[0].secretEncrypted },
      { $set: { webhookSigningSecrets: [this.sealSecret(merchantIdentifier, newWebhookSigningSecret(), now), ...kept] } },
      { returnDocument: 'after' }, // no projection: FerretDB's findAndModify has none
    );
    return updated ? this.signingSecretsInUse(merchantIdentifier, updated.webhookSigningSecrets ?? [], now) : false;
  }

  private sealSecret(merchantIdentifier: string, secret: string, createdAt: Date): StoredSigningSecret {
    return {
      secretEncrypted: encryptAtRest(this.masterKey, secret, signingSecretField(merchantIdentifier)),
      createdAt,
      retiresAt: null,
    };
  }

  /** The RSA private key (PEM) of one of the merchant's encryption keys, for decrypting payerVpa. */
  async privateKeyPem(merchantIdentifier: string, keyId: string): Promise<string | null> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { encryptionKeys: 1 } });
    const key = doc?.encryptionKeys.find((k) => k.keyId === keyId && !k.retiredAt);
    return key ? decryptAtRest(this.masterKey, key.privateKeyEncrypted, privateKeyField(merchantIdentifier, keyId)) : null;
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
    this.cache.delete(merchantIdentifier);
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
          secretKeyEncrypted: encryptAtRest(this.masterKey, newSecretKey, secretKeyField(merchantIdentifier)),
          previousSecretKeys: previous,
        },
      },
      { returnDocument: 'after' },
    );
    this.cache.delete(merchantIdentifier);
    return updated ? this.toMerchant(updated) : false;
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
    this.cache.delete(merchantIdentifier);
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    if (!doc) return null;
    const newest = (doc.previousSecretKeys ?? []).find((p) => p.retiresAt.getTime() > now.getTime());
    if (newest?.retiresAt.getTime() !== acceptedUntil.getTime()) return 'unknown';
    // Every rotation changes the current key: unchanged, nobody rotated since this read.
    const updated = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier, secretKeyEncrypted: doc.secretKeyEncrypted },
      { $set: { previousSecretKeys: [] } },
      { returnDocument: 'after' },
    );
    this.cache.delete(merchantIdentifier);
    return updated ? this.toMerchant(updated) : false;
  }

  /** A new RSA key pair, handed out from now on; the older keys still decrypt until retired. Null for an unknown merchant. */
  async addEncryptionKey(
    merchantIdentifier: string,
    key: { keyId: string; publicKeyPem: string; privateKeyPem: string },
    now: Date,
  ): Promise<Merchant | null> {
    this.cache.delete(merchantIdentifier);
    const updated = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier },
      {
        $push: {
          encryptionKeys: {
            keyId: key.keyId,
            publicKeyPem: key.publicKeyPem,
            privateKeyEncrypted: encryptAtRest(this.masterKey, key.privateKeyPem, privateKeyField(merchantIdentifier, key.keyId)),
            createdAt: now,
            retiredAt: null,
          },
        },
      },
      { returnDocument: 'after' },
    );
    return updated ? this.toMerchant(updated) : null;
  }

  /**
   * Retires one of the merchant's RSA keys: payerVpa encrypted with it is refused from now on. The
   * newest key cannot be retired (the merchant would have none). 'unknown' for no such merchant or key.
   * Writes only that key's `retiredAt`, by its place in the array (keys are only ever appended),
   * so a key added or another retired meanwhile is kept as the other change left it.
   */
  async retireEncryptionKey(merchantIdentifier: string, keyId: string, now: Date): Promise<Merchant | 'unknown' | 'newest'> {
    this.cache.delete(merchantIdentifier);
    const doc = await this.merchants.findOne({ _id: merchantIdentifier });
    const place = doc ? doc.encryptionKeys.findIndex((k) => k.keyId === keyId) : -1;
    if (!doc || place < 0) return 'unknown';
    if (this.toMerchant(doc).encryptionKeys[0]?.keyId === keyId) return 'newest';
    const updated = await this.merchants.findOneAndUpdate(
      { _id: merchantIdentifier, [`encryptionKeys.${place}.keyId`]: keyId, [`encryptionKeys.${place}.retiredAt`]: null },
      { $set: { [`encryptionKeys.${place}.retiredAt`]: now } },
      { returnDocument: 'after' },
    );
    this.cache.delete(merchantIdentifier);
    if (updated) return this.toMerchant(updated);
    // Retired already (by a concurrent call): the same answer as retiring it.
    const again = await this.merchants.findOne({ _id: merchantIdentifier });
    return again?.encryptionKeys[place]?.keyId === keyId && again.encryptionKeys[place]?.retiredAt
      ? this.toMerchant(again)
      : 'unknown';
  }

  private toMerchant(doc: MerchantDoc): Merchant {
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

const secretKeyField = (merchantIdentifier: string): SecretContext => ({ merchantIdentifier, field: 'secretKey' });
const privateKeyField = (merchantIdentifier: string, keyId: string): SecretContext => ({
  merchantIdentifier,
  field: `encryptionKeys.${keyId}.privateKey`,
});
const signingSecretField = (merchantIdentifier: string): SecretContext => ({ merchantIdentifier, field: 'webhookSigningSecret' });
