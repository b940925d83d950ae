import { ApiError } from '../../domain/api-errors';
import type { Merchant } from '../../domain/merchant';
import { qrImageSignatureMatches } from '../../domain/qr-image-address';
import { QR_SIZE } from '../../domain/qr-png';
import { renderQrPngOffLoop } from '../../qr-render-pool';
import { requireMerchant, verifiedWithKeysInForce } from '../middleware/authenticate';
import { validate } from '../middleware/body';
import { defineOperation, HttpAnswer, Verified, type AuthScheme, type OperationLimit } from '../operation';
import { qrImageQuerySchema } from '../schemas/qr';
import { qrImageReference } from './qr-openapi';

/** The parameters as they stand in the address (each given once), undecoded: what the signature covers. */
type RawParameters = Record<string, string>;

/**
 * GET /api/payments/v1/upi/qr/image: the QR of a signed address (qrDetails.imgUrl), public, fetched
 * by payers' browsers. The address is checked whole (signed, then well formed) before its merchant
 * is looked up; each fetch counts against the client's address.
 */
export const qrImageOperation = defineOperation<RawParameters>({
  method: 'get',
  path: '/api/payments/v1/upi/qr/image',
  envelope: 'success',
  auth: signedImageAddress(),
  // The request is the address: its scheme reads the query string as received, and its reading is the body.
  body: { contentType: 'none' },
  limit: perClient(),
  reference: qrImageReference,
  async handle({ caller: merchant, body }) {
    const q = imageAddress(body);
    const png = await renderQrPngOffLoop(merchant.merchantIdentifier, q.data, Number(q.width), Number(q.height));
    return new HttpAnswer(png, { type: 'image/png', headers: { 'Cache-Control': 'private, max-age=900' } });
  },
});

/**
 * `checksum` over the label, mid, width, height and `data` exactly as it stands in the address,
 * before any decoding: the parameters as written are the reading it verifies.
 */
function signedImageAddress(): AuthScheme<Merchant> {
  return {
    security: [{ qrImageSignature: [] }],
    from: 'signedReading',
    async authenticate(ctx, deps) {
      const raw = rawQuery(ctx.querystring);
      const q = imageAddress(raw);
      const merchant = await requireMerchant(deps.useCases.shared, q.mid);
      const now = deps.now();
      const unlabelled = now.getTime() < (deps.config.qr.imageUnlabelledUntil?.getTime() ?? -Infinity);
      const address = { mid: q.mid, width: q.width, height: q.height, rawData: raw.data, checksum: q.checksum };
      const signed = await verifiedWithKeysInForce(deps.useCases.shared, merchant, now, (keys) =>
        qrImageSignatureMatches(keys, address, unlabelled),
      );
      if (!signed) throw new ApiError('checksumMismatch');
      return new Verified(merchant, raw);
    },
    limitKey: (merchant) => merchant.merchantIdentifier,
  };
}

/** The image address is public (in the merchant's page) and anyone may fetch it again: not the merchant's budget. */
function perClient(): OperationLimit {
  return {
    counted: 'authenticated',
    build: (deps) => async (ctx) => {
      await deps.rateLimit.consumeForClient(ctx, 'qr-image');
      return null;
    },
  };
}

/** The address signed, then its values decoded and validated as decoded, sizes in range. */
function imageAddress(raw: RawParameters) {
  if (!raw.checksum) throw new ApiError('checksumMissing', 'the address is not signed');
  const q = validate(qrImageQuerySchema, Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, decodeQueryValue(v)])));
  if ([q.width, q.height].map(Number).some((n) => n < QR_SIZE.min || n > QR_SIZE.max)) {
    throw new ApiError('validationFailed', `width and height must be ${QR_SIZE.min} to ${QR_SIZE.max}`);
  }
  return q;
}

function decodeQueryValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ApiError('validationFailed', 'a query parameter is not percent-encoded UTF-8');
  }
}

/** Query parameters undecoded; a repeated parameter is refused rather than silently chosen. */
function rawQuery(querystring: string): RawParameters {
  const out: RawParameters = {};
  for (const pair of querystring.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const key = at < 0 ? pair : pair.slice(0, at);
    if (Object.hasOwn(out, key)) throw new ApiError('validationFailed', `query parameter ${key.slice(0, 20)} is repeated`);
    out[key] = at < 0 ? '' : pair.slice(at + 1);
  }
  return out;
}
