import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** What each key derived from MASTER_KEY is for: one key per purpose, none reused for another. */
export type KeyPurpose =
  'secrets-at-rest' | 'payload-codec' | 'payer-data-at-rest' | 'payer-data-lookup' | 'card-id' | 'checkout-token';

/** A 32-byte key for one purpose, derived from MASTER_KEY with HKDF-SHA256 (node:crypto). */
export function derivedKey(masterKeyHex: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(masterKeyHex, 'hex'), 'merchant-gateway', `mgw:${purpose}:v1`, 32));
}

/** Which secret a stored value is: the merchant and the field it belongs to (AES-GCM associated data). */
export interface SecretContext {
  merchantIdentifier: string;
  /** e.g. `secretKey` or `encryptionKeys.<keyId>.privateKey` */
  field: string;
}

const associatedData = (c: SecretContext) => Buffer.from(JSON.stringify([c.merchantIdentifier, c.field]), 'utf8');

/**
 * Encryption at rest for merchant secret keys and RSA private keys: AES-256-GCM under the
 * `secrets-at-rest` key derived from MASTER_KEY, with the merchant and the field as associated
 * data, so a value copied to another merchant or field does not decrypt. Stored form:
 * `v2.<iv>.<tag>.<ciphertext>` (base64url parts). `v1` (the master key itself, no associated
 * data) is still read; MerchantRepository.migrateSecretsAtRest rewrites it as v2.
 */
export function encryptAtRest(masterKeyHex: string, plaintext: string, context: SecretContext): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey(masterKeyHex, 'secrets-at-rest'), iv);
  cipher.setAAD(associatedData(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v2', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function decryptAtRest(masterKeyHex: string, stored: string, context: SecretContext): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if ((version !== 'v1' && version !== 'v2') || !iv || !tag || ciphertext === undefined) {
    throw new Error('unrecognised encrypted value');
  }
  const key = version === 'v1' ? Buffer.from(masterKeyHex, 'hex') : derivedKey(masterKeyHex, 'secrets-at-rest');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (version === 'v2') decipher.setAAD(associatedData(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** Stored before keys were derived and bound to their merchant: to be rewritten. */
export const isLegacyAtRest = (stored: string) => stored.startsWith('v1.');

/** API keys carry 192 random bits, so a plain SHA-256 is a safe lookup hash (no salt or KDF needed). */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

export function newApiKey(): string {
  return `mgw_${randomBytes(24).toString('base64url')}`;
}

export function newEncryptionKeyId(): string {
  return `ek_${randomBytes(8).toString('hex')}`;
}
