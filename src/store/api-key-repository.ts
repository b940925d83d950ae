import type { Collection, Db } from 'mongodb';
import { apiKeyId, type ApiKeyInfo } from '../domain/merchant';

/**
 * API keys by their SHA-256 hash as `_id`, so authenticating a key is a primary-key lookup (the
 * embedded store uses no other index). The merchant document keeps the hash of its first key too.
 */
export interface ApiKeyDoc {
  _id: string;
  merchantIdentifier: string;
  /** Absent on the key made with the merchant (and keys stored before labels existed). */
  label?: string;
  createdAt?: Date;
  /** Written at most once a minute per key (LAST_USED_EVERY_MS), so authentication stays a read. */
  lastUsedAt?: Date | null;
  revokedAt?: Date | null;
}

export const API_KEYS = 'api_keys';
const LAST_USED_EVERY_MS = 60_000;

/** The `api_keys` collection (reached through MerchantRepository, which owns the merchants they open). */
export class ApiKeyRepository {
  private readonly keys: Collection<ApiKeyDoc>;

  constructor(db: Db) {
    this.keys = db.collection<ApiKeyDoc>(API_KEYS);
  }

  /** The key made with a merchant (no label: it shows as the initial key). */
  async addInitial(apiKeyHash: string, merchantIdentifier: string): Promise<void> {
    await this.keys.insertOne({ _id: apiKeyHash, merchantIdentifier });
  }

  async add(merchantIdentifier: string, apiKeyHash: string, label: string, now: Date): Promise<void> {
    await this.keys.insertOne({ _id: apiKeyHash, merchantIdentifier, label, createdAt: now, lastUsedAt: null, revokedAt: null });
  }

  /** The merchant of an unrevoked key; notes the key's use (at most once a minute) when `usedAt` is given. */
  async merchantOf(apiKeyHash: string, usedAt?: Date): Promise<string | null> {
    const key = await this.keys.findOne({ _id: apiKeyHash });
    if (!key || key.revokedAt) return null;
    if (usedAt && (!key.lastUsedAt || usedAt.getTime() - key.lastUsedAt.getTime() >= LAST_USED_EVERY_MS)) {
      // Conditional, so replicas racing write once; not awaited by the caller's answer beyond this one write.
      await this.keys.updateOne({ _id: apiKeyHash, lastUsedAt: key.lastUsedAt ?? null }, { $set: { lastUsedAt: usedAt } });
    }
    return key.merchantIdentifier;
  }

  /** The merchant's keys, revoked ones too, oldest first (a key without a date counts from `merchantCreatedAt`). */
  async list(merchantIdentifier: string, merchantCreatedAt: Date): Promise<ApiKeyInfo[]> {
    const keys = await this.keys.find({ merchantIdentifier }).limit(1000).toArray();
    return keys
      .map((k) => ({
        keyId: apiKeyId(k._id),
        label: k.label ?? 'Initial key',
        createdAt: k.createdAt ?? merchantCreatedAt,
        lastUsedAt: k.lastUsedAt ?? null,
        revokedAt: k.revokedAt ?? null,
      }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** Revokes one of the merchant's keys (at once, on every replica); false when the merchant has no such key. */
  async revoke(merchantIdentifier: string, keyId: string, now: Date): Promise<boolean> {
    const keys = await this.keys
      .find({ merchantIdentifier }, { projection: { _id: 1, revokedAt: 1 } })
      .limit(1000)
      .toArray();
    const key = keys.find((k) => apiKeyId(k._id) === keyId);
    if (!key) return false;
    if (!key.revokedAt) await this.keys.updateOne({ _id: key._id, merchantIdentifier }, { $set: { revokedAt: now } });
    return true;
  }
}
