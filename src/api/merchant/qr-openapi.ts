import { z } from 'zod';
import { exampleQrImageQuery, exampleQrRequest } from '../reference/examples';
import { successError } from '../reference/operation';
import { createQrResponseSchema, qrImageQuerySchema } from '../schemas/qr';
import type { OperationReference } from '../operation';

/** The dynamic QR's entry in the API reference (its operation: qr.ts). */
export const qrReference: OperationReference = {
  summary: 'Create a dynamic UPI QR for an order',
  description:
    'The first request for an order id creates a Pending UPI order (`success: true`, code 208) whose payer has `QR_EXPIRY_SECONDS` to pay; then it fails with responseCode 183 (the reason, expired unpaid, stays in the store and the dashboard). Any later request with that order id (also one that raced it) answers `success: false`, code 128, and exactly the first `data`, byte for byte; when the order id belongs to another kind of payment, `data` holds only orderId and serviceOrderId. The body is authenticated (field `checksum`) before it is validated. Both answers are HTTP 200.',
  example: exampleQrRequest(),
  responses: { 200: { description: 'created (208) or repeated order id (128)', schema: createQrResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};

/** The QR image address of the API reference (its operation: qr-image.ts). */
export const qrImageReference: OperationReference = {
  summary: 'The QR image of a signed address (qrDetails.imgUrl)',
  description:
    'Query values are taken as they stand in the address; `checksum` covers the label `mgw:qr-image:v1:` + mid + width + height + data with `data` still percent-encoded (the label keeps this checksum apart from every other one). A tampered, unsigned (no checksum) or foreign-merchant address is 401; a malformed one (missing or repeated parameter, size outside 100..1000) is 400.',
  // The parameters as documented; the operation reads them undecoded, as the signature covers them.
  request: qrImageQuerySchema,
  example: exampleQrImageQuery(),
  responses: { 200: { description: 'the QR as PNG', schema: z.string().describe('PNG bytes'), mediaType: 'image/png' } },
  errors: [400, 401, 503],
  errorEnvelope: successError,
};
