import Router from '@koa/router';
import { z } from 'zod';
import { ApiError, BusinessResults } from '../../domain/api-errors';
import { qrImageSignatureMatches } from '../../domain/qr-image-address';
import { QR_SIZE } from '../../domain/qr-png';
import { renderQrPngOffLoop } from '../../qr-render-pool';
import { createQr } from '../../usecases/create-qr';
import { startPaymentDeps } from '../../usecases/start-payment';
import type { ApiDeps } from '../deps';
import { requireMerchant, verifiedWithKeysInForce } from '../middleware/authenticate';
import { validate } from '../middleware/body';
import { defineOperation, JsonText } from '../operation';
import { signedQrFields } from '../operation-auth';
import { createQrSchema, qrImageQuerySchema } from '../schemas/qr';
import { merchantIdentifierField } from '../schemas/common';
import { qrReference } from './qr-openapi';

/** Only what finding the merchant takes; the rest is validated after the checksum has matched. */
const qrCaller = z.object({ merchantIdentifier: merchantIdentifierField });

/** Dynamic QR: POST /api/payments/v1/upi/qr creates the order's QR, or answers a repeat with the first one's data. */
export const qrOperation = defineOperation({
  method: 'post',
  path: '/api/payments/v1/upi/qr',
  envelope: 'success',
  auth: signedQrFields(qrCaller),
  body: { contentType: 'application/json', schema: createQrSchema },
  limit: 'qr',
  reference: qrReference,
  async handle({ caller: merchant, body, ip }, deps) {
    const result = await createQr(
      { ...startPaymentDeps(deps), config: deps.config },
      {
        merchant,
        orderId: body.orderId,
        amountPaise: body.amount,
        productDescription: body.productDescription,
        buyerEmail: body.buyerEmail ?? null,
        width: body.width,
        height: body.height,
        ipAddress: ip,
      },
    );
    const message = result.kind === 'created' ? BusinessResults.qrCreated : BusinessResults.qrOrderRepeated;
    // Written around the stored data text, so a repeat answers the first request's bytes exactly.
    return new JsonText(
      `{"success":${result.kind === 'created'},"message":${JSON.stringify({ code: String(message.code), text: message.text })},"data":${result.data}}`,
    );
  },
});

/** The QR's signed image address (GET .../qr/image): public, fetched by payers' browsers. */
export function qrRoutes(deps: ApiDeps): Router {
  const router = new Router();

  router.get('/api/payments/v1/upi/qr/image', async (ctx) => {
    const raw = rawQuery(ctx.querystring);
    if (!raw.checksum) throw new ApiError('checksumMissing', 'the address is not signed');
    // Validated as decoded; the signature covers `data` as it stands in the address.
    const q = validate(qrImageQuerySchema, Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, decodeQueryValue(v)])));
    const width = Number(q.width);
    const height = Number(q.height);
    if ([width, height].some((n) => n < QR_SIZE.min || n > QR_SIZE.max)) {
      throw new ApiError('validationFailed', `width and height must be ${QR_SIZE.min} to ${QR_SIZE.max}`);
    }
    const merchant = await requireMerchant(deps.merchants, q.mid);
    // The checksum covers `data` exactly as it stands in the address, before any decoding.
    const now = deps.now();
    const unlabelled = now.getTime() < (deps.config.QR_IMAGE_UNLABELLED_UNTIL?.getTime() ?? -Infinity);
    const address = { mid: q.mid, width: q.width, height: q.height, rawData: raw.data, checksum: q.checksum };
    if (
      !(await verifiedWithKeysInForce(deps.merchants, merchant, now, (keys) =>
        qrImageSignatureMatches(keys, address, unlabelled),
      ))
    ) {
      throw new ApiError('checksumMismatch');
    }
    // The image address is public (in the merchant's page) and anyone may fetch it again: each
    // fetch counts against the client's address, not the merchant's budget.
    await deps.rateLimit.consumeForClient(ctx, 'qr-image');
    const url = q.data;
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'private, max-age=900');
    ctx.body = await renderQrPngOffLoop(merchant.merchantIdentifier, url, width, height);
  });
  return router;
}

function decodeQueryValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ApiError('validationFailed', 'a query parameter is not percent-encoded UTF-8');
  }
}

/** Query parameters undecoded; a repeated parameter is refused rather than silently chosen. */
function rawQuery(querystring: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of querystring.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const key = at < 0 ? pair : pair.slice(0, at);
    if (Object.hasOwn(out, key)) throw new ApiError('validationFailed', `query parameter ${key.slice(0, 20)} is repeated`);
    out[key] = at < 0 ? '' : pair.slice(at + 1);
  }
  return out;
}
