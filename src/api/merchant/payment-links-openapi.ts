import { MAX_LINKS_PER_BATCH } from '../../domain/payment-link';

import type { OperationReference } from '../operation';
import { paymentLinkBatchDocSchema, paymentLinkResponseSchema } from '../schemas/payment-links';
import { z } from 'zod';

const paymentLinkError = z.object({
  success: z.literal(false),
  statusCode: z.number().int(),
  errorMessage: z.string(),
  data: z.array(z.unknown()).max(0),
});

/** The payment link operation's entry in the API reference (its operation: payment-links.ts; the hosted page itself is HTML, not API). */
export const paymentLinkReference: OperationReference = {
  summary: 'Create a batch of payment links',
  description: `Header \`X-API-Key\`. Up to ${MAX_LINKS_PER_BATCH} entries; each is validated on its own and answered in \`data\` in the same order: echoed (amount as a number, customerMobile as a string, linkExpireBy as yyyy-MM-dd HH:mm:ss IST) with \`link\` (the hosted page, {PUBLIC_BASE_URL}/pl/<token>) and, with showQrImg, \`qrCode\` (base64 PNG of the link); or with \`link: null\` and \`errorDescription\` naming the field. Required per entry: orderId, amount, linkExpireBy, productDescription. A batchId used before by another request, or an orderId of any earlier order, fails the entry; the same request again (same batchId, same details) answers exactly as the first time, completing a batch whose creation failed half way. HTTP 200 for any batch that parsed; \`statusCode\` 200 when every entry got a link, 207 some, 400 none. Each link is an order (Pending, visible in the status API and ledger) that its payment workflow keeps open until linkExpireBy, then fails with 183; paid at most once. The QR images of one batch may hold at most QR_PIXEL_BUDGET pixels in all (width x height summed over the entries with showQrImg; 50,000,000 by default): a batch asking for more is refused whole, nothing created, HTTP 400 with \`statusCode\` 400 and errorMessage \`2018: ...\`.`,
  request: paymentLinkBatchDocSchema,
  example: {
    batchId: 'batch-2026-11-23-1',
    details: [
      {
        orderId: 'link-1001',
        amount: 249.5,
        linkExpireBy: '30/12/2099 18:00:00',
        productDescription: 'Cotton saree',
        invoiceNumber: 'INV-1001',
        customerMobile: '9876543210',
        showQrImg: true,
      },
    ],
  },
  responses: { 200: { description: 'the batch, answered entry by entry', schema: paymentLinkResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: paymentLinkError,
};
