import { exampleStatusRequest } from '../reference/examples';
import { operation, statusError } from '../reference/operation';
import { statusRequestSchema, statusResponseSchema } from '../schemas/status';

/** The status operation of the API reference (Zaakpay's Status API, with its own error envelope). */
export function statusPaths(): Record<string, object> {
  return {
    '/api/payments/v1/status': {
      post: operation({
        summary: 'Status of one order and its refunds',
        description:
          'Header `checksum`: HMAC-SHA256 (lowercase hex) of the exact request body with the secret key. An unknown order is a business result: HTTP 200, `status: false`, code 2020.',
        security: [{ statusChecksum: [] }],
        request: statusRequestSchema,
        example: exampleStatusRequest,
        responses: { 200: { description: 'found (message code 100) or not found (2020)', schema: statusResponseSchema } },
        errors: [400, 401, 413, 415, 503],
        errorEnvelope: statusError,
      }),
    },
  };
}
