import { checksumMatches, hmacSha256Hex, type VerifyingKeys } from './checksum';

/**
 * The signed QR image address (design.md, Keys and merchants): `checksum` = HMAC-SHA256(secretKey, label + mid +
 * width + height + data), where `data` is the percent-encoded intent exactly as it stands in the
 * address. The gateway alone signs and checks it, so its text starts with a label of ours
 * (QR_IMAGE_LABEL): no text a merchant signs starts that way (merchant ids are hexadecimal, the
 * other signed texts start with `{`, `'` or a field name and `=`), so an image address's checksum
 * is never accepted as a QR create's or any other request's, nor theirs as an image's.
 */
export interface QrImageParams {
  mid: string;
  width: number;
  height: number;
  /** The UPI intent (qrDetails.url). */
  url: string;
}

export const QR_IMAGE_PATH = '/api/payments/v1/upi/qr/image';

export const QR_IMAGE_LABEL = 'mgw:qr-image:v1:';

const signedText = (mid: string, width: number | string, height: number | string, data: string) =>
  `${QR_IMAGE_LABEL}${mid}${width}${height}${data}`;

export function qrImageAddress(baseUrl: string, secretKey: string, p: QrImageParams): string {
  const data = encodeURIComponent(p.url);
  const checksum = hmacSha256Hex(secretKey, signedText(p.mid, p.width, p.height, data));
  return `${baseUrl}${QR_IMAGE_PATH}?mid=${encodeURIComponent(p.mid)}&width=${p.width}&height=${p.height}&data=${data}&checksum=${checksum}`;
}

/**
 * Whether the address's checksum matches; `rawData` is the `data` parameter as received, undecoded.
 * `unlabelled`: also accept the earlier unlabelled text (addresses made before the label, while
 * QR_IMAGE_UNLABELLED_UNTIL lasts).
 */
export function qrImageSignatureMatches(
  secretKey: VerifyingKeys,
  q: { mid: string; width: string; height: string; rawData: string; checksum: string },
  unlabelled = false,
): boolean {
  return (
    checksumMatches(secretKey, signedText(q.mid, q.width, q.height, q.rawData), q.checksum) ||
    (unlabelled && checksumMatches(secretKey, `${q.mid}${q.width}${q.height}${q.rawData}`, q.checksum))
  );
}
