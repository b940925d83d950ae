import Router from '@koa/router';
import { ApiError } from '../../domain/api-errors';
import { batchQrPixels } from '../../domain/payment-link';
import { createPaymentLinks } from '../../usecases/create-payment-links';
import { startPaymentDeps } from '../../usecases/start-payment';
import type { Merchant } from '../../domain/merchant';
import type { ApiDeps } from '../deps';
import { apiKeyAuth } from '../middleware/authenticate';
import { readJson } from '../middleware/body';
import { checkPaymentLinkEntry, paymentLinkBatchSchema } from '../schemas/payment-links';

/** POST /pl/api/v1/create (`X-API-Key`): a batch of payment links, each entry answered on its own. */
export function paymentLinkRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/pl/api/v1/create', apiKeyAuth(deps.merchants, deps.now), async (ctx) => {
    const merchant = ctx.state.merchant as Merchant;
    await deps.rateLimit.consume(ctx, 'paylinks', merchant.merchantIdentifier);
    const { body } = await readJson(ctx, paymentLinkBatchSchema, deps.config.PAYMENT_LINK_MAX_BODY_BYTES);
    const now = deps.now();
    const entries = body.details.map((raw) => checkPaymentLinkEntry(raw, now));
    // Refused before anything is stored or rendered: the images' pixels bound the CPU one request takes.
    const pixels = batchQrPixels(entries);
    if (pixels > deps.config.QR_PIXEL_BUDGET) {
      throw new ApiError(
        'qrPixelBudgetExceeded',
        `the batch asks for ${pixels} pixels of QR images, at most ${deps.config.QR_PIXEL_BUDGET}`,
      );
    }
    const data = await createPaymentLinks(
      { ...startPaymentDeps(deps), paymentLinks: deps.paymentLinks, config: deps.config, logger: deps.logger },
      merchant,
      body.batchId,
      entries,
      ctx.ip || null,
    );
    const failed = data.filter((d) => d.link === null).length;
    ctx.body = {
      success: failed === 0,
      statusCode: failed === 0 ? 200 : failed < data.length ? 207 : 400,
      errorMessage: failed === 0 ? null : `${failed} of ${data.length} links could not be created; see errorDescription`,
      data,
    };
  });
  return router;
}
