import { exampleStatusRequest } from '../reference/examples';
import { successError } from '../reference/operation';
import type { OperationReference } from '../operation';
import { sandboxPaymentResponseSchema } from '../schemas/sandbox';

/** The sandbox payer's operation of the API reference (only where the sandbox is enabled). */
export const sandboxPaymentReference: OperationReference = {
  summary: 'Create and pay an order as a sandbox payer',
  description:
    'Exactly one of `payerVpa` (success@sandbox, failure@sandbox, noanswer@sandbox), `cardNumber` (4012001037141112 pays, 4000000000000002 is declined) or `bankCode` (SBIN, FAIL). Amount in integer paise; below 900 the bank declines with 1021. 202 when the order is new, 200 for a repeat; the same orderId with other details, or an orderId another kind of order holds (one namespace per merchant: QR orders, payment links, mandates and their debits), is `success: false`, code 2030.',
  example: {
    merchantIdentifier: exampleStatusRequest.merchantIdentifier,
    orderId: exampleStatusRequest.orderId,
    amount: 10000,
    productDescription: 'Tea',
    payerVpa: 'success@sandbox',
  },
  responses: {
    202: {
      description: 'order created; the outcome follows from its payment workflow',
      schema: sandboxPaymentResponseSchema,
    },
    200: { description: 'the order already existed', schema: sandboxPaymentResponseSchema },
  },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};
