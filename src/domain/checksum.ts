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
export function checksumMatches(secretKey: string, payload: string | Uint8Array, presented: string): boolean {
  if (!CHECKSUM_FORMAT.test(presented)) return false;
  const expected = createHmac('sha256', secretKey).update(payload).digest();
  return timingSafeEqual(expected, Buffer.from(presented, 'hex'));
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
