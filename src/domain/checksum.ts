import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256 of the exact bytes given. */
export function hmacSha256Hex(secretKey: string, payload: string | Uint8Array): string {
  return createHmac('sha256', secretKey).update(payload).digest('hex');
}

const CHECKSUM_FORMAT = /^[0-9a-fA-F]{64}$/;

/**
 * Constant-time check of a presented checksum against the HMAC of `payload`. A value that is not
 * 64 hex characters is rejected before any comparison (its length is not secret).
 */
export function checksumMatches(secretKeys: VerifyingKeys, payload: string | Uint8Array, presented: string): boolean {
  if (!CHECKSUM_FORMAT.test(presented)) return false;
  const given = Buffer.from(presented, 'hex');
  // Every key is compared (during a rotation's overlap, the new and the old).
  return (typeof secretKeys === 'string' ? [secretKeys] : secretKeys)
    .map((key) => timingSafeEqual(createHmac('sha256', key).update(payload).digest(), given))
    .includes(true);
}

/** One secret key, or the keys a merchant's checksums are accepted with (secretKeysAt). */
export type VerifyingKeys = string | readonly string[];

/** A merchant's secret key and, after a rotation, the ones it replaced with the end of their overlap. */
export interface SecretKeys {
  secretKey: string;
  previousSecretKeys: readonly { secretKey: string; retiresAt: Date }[];
}

/**
 * The keys a merchant's checksums are verified with at `at`: the current one, and during a rotation's
 * overlap the one(s) it replaced (design.md, Keys and merchants). What the gateway signs uses the current one only.
 */
export function secretKeysAt(k: SecretKeys, at: Date): string[] {
  return [k.secretKey, ...k.previousSecretKeys.filter((p) => p.retiresAt.getTime() > at.getTime()).map((p) => p.secretKey)];
}

/** Dynamic QR: the fields concatenated without separators, in the contract's order. */
export function qrChecksumPayload(f: {
  merchantIdentifier: string;
  orderId: string;
  amount: number | string;
  productDescription: string;
}): string {
  return `${f.merchantIdentifier}${f.orderId}${f.amount}${f.productDescription}`;
}
