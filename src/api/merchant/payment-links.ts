import { ApiError } from '../../domain/api-errors';
import { batchQrPixels } from '../../domain/payment-link';
import { defineOperation } from '../operation';
import { apiKey } from '../operation-auth';
import { checkPaymentLinkEntry, paymentLinkBatchSchema } from '../schemas/payment-links';
import { paymentLinkReference } from './payment-links-openapi';

/** POST /pl/api/v1/create (`X-API-Key`): a batch of payment links, each entry answered on its own. */
export const paymentLinkOperation = defineOperation({
  method: 'post',
  path: '/pl/api/v1/create',
  envelope: 'paylink',
  auth: apiKey,
  body: { contentType: 'application/json', schema: paymentLinkBatchSchema, maxBytes: 'paymentLinkMaxBodyBytes' },
  limit: 'paylinks',
  reference: paymentLinkReference,
  async handle({ caller: merchant, body, ip }, deps) {
    const now = deps.now();
    const entries = body.details.map((raw) => checkPaymentLinkEntry(raw, now));
    // Refused before anything is stored or rendered: the images' pixels bound the CPU one request takes.
    const pixels = batchQrPixels(entries);
    if (pixels > deps.config.qr.pixelBudget) {
      throw new ApiError(
        'qrPixelBudgetExceeded',
        `the batch asks for ${pixels} pixels of QR images, at most ${deps.config.qr.pixelBudget}`,
      );
    }
    const data = await deps.useCases.merchant.createPaymentLinks(merchant, body.batchId, entries, ip);
    const failed = data.filter((d) => d.link === null).length;
    return {
      success: failed === 0,
      statusCode: failed === 0 ? 200 : failed < data.length ? 207 : 400,
      errorMessage: failed === 0 ? null : `${failed} of ${data.length} links could not be created; see errorDescription`,
      data,
    };
  },
});
