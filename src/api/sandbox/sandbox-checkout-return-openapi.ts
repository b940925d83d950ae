import { EXAMPLE_MERCHANT } from '../reference/examples';
import { successError } from '../reference/operation';
import type { OperationReference } from '../operation';
import { sandboxReturnQuerySchema } from '../schemas/sandbox-checkout';

/** The sandbox's returnUrl, to try the hosted checkout without a merchant site. */
export const sandboxCheckoutReturnReference: OperationReference = {
  summary: "A merchant's returnUrl for trying the hosted checkout without a merchant site (sandbox)",
  description:
    'Shows, as a page, the fields a checkout returned (in order) and whether the checksum verifies with the key of the merchant named in the query, as V8, V7 or legacy return. Unknown fields are refused (400, 2002); an unknown merchant is 404 (2042).',
  query: sandboxReturnQuerySchema,
  queryExample: { merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier },
  example: {
    orderId: 'checkout-1001',
    amount: '25000',
    responseCode: '100',
    responseDescription: 'The transaction was completed successfully. ',
    checksum: '0'.repeat(64),
  },
  responses: { 200: { description: 'the page', html: true } },
  errors: [400, 404, 413, 415, 503],
  errorEnvelope: successError,
};
