import Router from '@koa/router';
import { z } from 'zod';
import { ApiError, BusinessResults } from '../../domain/api-errors';
import { qrImageSignatureMatches } from '../../domain/qr-image-address';
import { QR_SIZE } from '../../domain/qr-png';
import { renderQrPngOffLoop } from '../../qr-render-pool';
import { createQr } from '../../usecases/create-qr';
import { startPaymentDeps } from '../../usecases/start-payment';
import type { ApiDeps } from '../deps';
import { authenticateQrChecksum, requireMerchant, verifiedWithKeysInForce } from '../middleware/authenticate';
import { parseJsonBody, readRawBody, validate } from '../middleware/body';
import { createQrSchema, qrImageQuerySchema } from '../schemas/qr';
import { merchantIdentifierField } from '../schemas/common';

/** Only what finding the merchant takes; the rest is validated after the checksum has matched. */
const qrCaller = z.object({ merchantIdentifier: merchantIdentifierField });

/** Dynamic QR (POST /api/payments/v1/upi/qr) and its signed image address (GET .../qr/image). */
export function qrRoutes(deps: ApiDeps): Router {
  const router = new Router();

  router.post('/api/payments/v1/upi/qr', async (ctx) => {
    const parsed = parseJsonBody(await readRawBody(ctx, 'application/json', deps.config.MAX_BODY_BYTES));
    const { merchantIdentifier } = validate(qrCaller, parsed);
    const fields = parsed as Record<string, unknown>;
    const merchant = await authenticateQrChecksum(
      deps.merchants,
      {
        merchantIdentifier,
        orderId: asSigned(fields.orderId),
        amount: asSigned(fields.amount),
        productDescription: asSigned(fields.productDescription),
        checksum: typeof fields.checksum === 'string' ? fields.checksum : undefined,
      },
      deps.now(),
    );
    await deps.rateLimit.consume(ctx, 'qr', merchant.merchantIdentifier);
    const body = validate(createQrSchema, parsed);

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
        ipAddress: ctx.ip || null,
      },
    );
    const message = result.kind === 'created' ? BusinessResults.qrCreated : BusinessResults.qrOrderRepeated;
    // Written around the stored data text, so a repeat answers the first request's bytes exactly.
    ctx.type = 'application/json';
    ctx.body = `{"success":${result.kind === 'created'},"message":${JSON.stringify({ code: String(message.code), text: message.text })},"data":${result.data}}`;
  });

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

/** The signed fields as the merchant concatenated them (a wrong type then simply fails the checksum). */
function asSigned(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
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
