import { EXAMPLE_MERCHANT } from '../reference/examples';
import { successError } from '../reference/operation';
import type { OperationReference } from '../operation';
import { sandboxQrPayResponseSchema } from '../schemas/qr';

/** The sandbox payer of a dynamic QR. */
export const sandboxQrPayReference: OperationReference = {
  summary: 'Pay an open dynamic QR as a sandbox payer',
  description:
    '202 when the payer is accepted; the outcome follows from the order workflow (success@sandbox pays, failure@sandbox is declined, noanswer@sandbox gets no bank answer). Refused with HTTP 200 and `success: false`: 2020 unknown order, 2031 not a QR order, 2032 not open (paid, expired or already being paid).',
  example: { merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier, orderId: 'qr-1001', payerVpa: 'success@sandbox' },
  responses: {
    202: { description: 'payer accepted', schema: sandboxQrPayResponseSchema },
    200: { description: 'refused (2020, 2031, 2032)', schema: sandboxQrPayResponseSchema },
  },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};
