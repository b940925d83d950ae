import { checksumMatches, hmacSha256Hex, type VerifyingKeys } from './checksum';

/**
 * The signed QR image address of DECISIONS.md: `checksum` = HMAC-SHA256(secretKey, mid + width +
 * height + data), where `data` is the percent-encoded intent exactly as it stands in the address.
 */
export interface QrImageParams {
  mid: string;
  width: number;
  height: number;
  /** The UPI intent (qrDetails.url). */
  url: string;
}

export const QR_IMAGE_PATH = '/api/payments/v1/upi/qr/image';

export function qrImageAddress(baseUrl: string, secretKey: string, p: QrImageParams): string {
  const data = encodeURIComponent(p.url);
  const checksum = hmacSha256Hex(secretKey, `${p.mid}${p.width}${p.height}${data}`);
  return `${baseUrl}${QR_IMAGE_PATH}?mid=${encodeURIComponent(p.mid)}&width=${p.width}&height=${p.height}&data=${data}&checksum=${checksum}`;
}

/** Whether the address's checksum matches; `rawData` is the `data` parameter as received, undecoded. */
export function qrImageSignatureMatches(
  secretKey: VerifyingKeys,
  q: { mid: string; width: string; height: string; rawData: string; checksum: string },
): boolean {
  return checksumMatches(secretKey, `${q.mid}${q.width}${q.height}${q.rawData}`, q.checksum);
}
