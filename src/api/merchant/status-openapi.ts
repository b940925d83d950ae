import { exampleStatusRequest } from '../reference/examples';
import type { OperationReference } from '../operation';
import { statusError } from '../reference/operation';
import { statusResponseSchema } from '../schemas/status';

/** The status operation's entry in the API reference (Zaakpay's Status API, with its own error envelope). */
export const statusReference: OperationReference = {
  summary: 'Status of one order and its refunds',
  description:
    'Header `checksum`: HMAC-SHA256 (lowercase hex) of the exact request body with the secret key. An unknown order is a business result: HTTP 200, `status: false`, code 2020.',
  example: exampleStatusRequest,
  responses: { 200: { description: 'found (message code 100) or not found (2020)', schema: statusResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: statusError,
};
