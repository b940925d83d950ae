import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The gateway's checksums: lowercase hex HMAC-SHA256 with the merchant's secret key, always over
 * the exact bytes sent or received (never over JSON re-serialised on the way).
 */
export function hmacHex(secretKey: string, payload: string | Uint8Array): string {
  return createHmac('sha256', secretKey).update(payload).digest('hex');
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** Constant-time check of a presented hex checksum against the HMAC of `payload`. */
export function checksumMatches(secretKey: string, payload: string | Uint8Array, presented: unknown): boolean {
  if (typeof presented !== 'string' || !HEX64.test(presented)) return false;
  return timingSafeEqual(createHmac('sha256', secretKey).update(payload).digest(), Buffer.from(presented, 'hex'));
}

/** Dynamic QR: merchantIdentifier + orderId + amount + productDescription, no separators. */
export const qrChecksumText = (f: {
  merchantIdentifier: string;
  orderId: string;
  amount: number | string;
  productDescription: string;
}) => `${f.merchantIdentifier}${f.orderId}${f.amount}${f.productDescription}`;

/**
 * QR image address: the label `mgw:qr-image:v1:` + mid + width + height + data, `data`
 * percent-encoded exactly as in the address (the label keeps it apart from every other checksum).
 */
export const qrImageChecksumText = (mid: string, width: number, height: number, encodedData: string) =>
  `mgw:qr-image:v1:${mid}${width}${height}${encodedData}`;

/** `key=value&` for each pair, in order: the express checkout request and the V8/V7 returns. */
export const keyValueText = (pairs: readonly (readonly [string, string])[]) => pairs.map(([k, v]) => `${k}=${v}&`).join('');

/** The legacy form: each value in single quotes, in order. */
export const quotedValuesText = (pairs: readonly (readonly [string, string])[]) => pairs.map(([, v]) => `'${v}'`).join('');
