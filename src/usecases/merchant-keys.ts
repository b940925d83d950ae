import { ApiError } from '../domain/api-errors';
import { randomHex32 } from '../domain/identifiers';
import { hashApiKey, newApiKey } from '../domain/secrets';
import { apiKeyId, type ApiKeyInfo, type Merchant } from '../domain/merchant';
import { type MerchantRepository } from '../store/merchant-repository';
import { newEncryptionKey } from './provision-merchant';

/**
 * A merchant's keys, one set of operations for the dashboard, the ops API and the CLI
 * (design.md, Merchant dashboard): API keys (several, labelled, shown once, revocable), the
 * secret key rotated with an overlap, the RSA key rotated and retired.
 */

const iso = (d: Date | null) => d?.toISOString() ?? null;
export const apiKeyView = (k: ApiKeyInfo) => ({
  keyId: k.keyId,
  label: k.label,
  createdAt: iso(k.createdAt),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
});

/** A new API key: the key itself is in this answer only (the store keeps its hash). Null for an unknown merchant. */
export async function createApiKey(merchants: MerchantRepository, merchantIdentifier: string, label: string, now: Date) {
  const apiKey = newApiKey();
  const hash = hashApiKey(apiKey);
  if (!(await merchants.addApiKey(merchantIdentifier, hash, label, now))) return null;
  return { apiKey, ...apiKeyView({ keyId: apiKeyId(hash), label, createdAt: now, lastUsedAt: null, revokedAt: null }) };
}

/** The merchant's API keys, revoked ones too, oldest first; null for an unknown merchant. */
export function listApiKeys(merchants: MerchantRepository, merchantIdentifier: string): Promise<ApiKeyInfo[] | null> {
  return merchants.listApiKeys(merchantIdentifier);
}

/**
 * Revokes one of the merchant's API keys (refused from now on, on every replica): the key as it
 * now stands, or why not (an unknown merchant, or no such key of this merchant).
 */
export async function revokeApiKey(
  merchants: MerchantRepository,
  merchantIdentifier: string,
  keyId: string,
  now: Date,
): Promise<ApiKeyInfo | 'merchantNotFound' | 'keyNotFound'> {
  if (!(await merchants.revokeApiKey(merchantIdentifier, keyId, now)))
    return (await merchants.findById(merchantIdentifier)) ? 'keyNotFound' : 'merchantNotFound';
  return (await merchants.listApiKeys(merchantIdentifier))!.find((k) => k.keyId === keyId)!;
}

/**
 * How often a key change that lost a race to another is read again and retried: each loss means
 * another change won, so concurrent callers all get through unless more than this many race.
 */
const RACE_ATTEMPTS = 10;
const contended = () => new ApiError('dependencyUnavailable', "the merchant's keys are being changed by someone else; try again");

/** The secret key rotation: the new key, and until when the old one is still accepted. */
export async function rotateSecretKey(merchants: MerchantRepository, merchantIdentifier: string, overlapMs: number, now: Date) {
  for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt++) {
    const secretKey = randomHex32();
    const rotated = await merchants.rotateSecretKey(merchantIdentifier, secretKey, overlapMs, now);
    if (rotated === null) return null;
    if (rotated)
      return { merchantIdentifier, secretKey, previousKeyAcceptedUntil: rotated.previousSecretKeys[0].retiresAt.toISOString() };
  }
  throw contended();
}

/**
 * Revokes the previous secret key now instead of at the end of its overlap (an owner who fears it
 * leaked). `acceptedUntil` names the rotation the caller saw (its previousKeyAcceptedUntil): a
 * request made before a newer rotation names a key no longer the previous one and revokes nothing.
 * Null for an unknown merchant, 'unknown' when no such previous key is still accepted.
 */
export async function revokePreviousSecretKey(
  merchants: MerchantRepository,
  merchantIdentifier: string,
  acceptedUntil: Date,
  now: Date,
): Promise<{ merchantIdentifier: string; previousKeyRevokedAt: string } | null | 'unknown'> {
  for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt++) {
    const revoked = await merchants.revokePreviousSecretKeys(merchantIdentifier, acceptedUntil, now);
    if (revoked === null || revoked === 'unknown') return revoked;
    if (revoked) return { merchantIdentifier, previousKeyRevokedAt: now.toISOString() };
  }
  throw contended();
}

/** The webhook signing secret rotation: the secrets in use afterwards, the new one first. Null for an unknown merchant. */
export async function rotateWebhookSigningSecret(
  merchants: MerchantRepository,
  merchantIdentifier: string,
  overlapMs: number,
  now: Date,
) {
  for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt++) {
    const rotated = await merchants.rotateWebhookSigningSecret(merchantIdentifier, overlapMs, now);
    if (rotated !== false) return rotated;
  }
  throw contended();
}

export const encryptionKeysView = (m: Merchant) => ({
  merchantIdentifier: m.merchantIdentifier,
  /** The newest first: the one to encrypt with. */
  encryptionKeys: m.encryptionKeys.map((k) => ({
    encryptionKeyId: k.keyId,
    publicKeyPem: k.publicKeyPem,
    createdAt: k.createdAt.toISOString(),
  })),
});

/** A new RSA key: the merchant encrypts with it from now on; the older ones decrypt until retired. */
export async function rotateEncryptionKey(merchants: MerchantRepository, merchantIdentifier: string, now: Date) {
  const merchant = await merchants.addEncryptionKey(merchantIdentifier, await newEncryptionKey(), now);
  return merchant ? encryptionKeysView(merchant) : null;
}

export async function retireEncryptionKey(merchants: MerchantRepository, merchantIdentifier: string, keyId: string, now: Date) {
  const result = await merchants.retireEncryptionKey(merchantIdentifier, keyId, now);
  return typeof result === 'string' ? result : encryptionKeysView(result);
}
