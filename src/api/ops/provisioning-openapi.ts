import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';
import { merchantCredentialsResponseSchema } from '../schemas/ops';

/** Provisioning a merchant, the first operation of the operator API (the others: ops.ts). */
export const provisioningReference: OperationReference = {
  summary: 'Provision a merchant, or import one with its own merchantIdentifier and secretKey (operator)',
  description:
    'Returns the credentials once; the API key and secret are not shown again. A merchant moving from another Zaakpay-compatible gateway sends the merchantIdentifier (6-64 letters and digits) and secretKey (16-128 printable ASCII characters) it already uses, so its code changes only the host; without them both are generated (32 lowercase hex). A taken merchantIdentifier: 409, code 2047, nothing stored.',
  example: { name: 'Meera Textiles', webhookUrl: 'https://meera.example/zaakpay/webhooks' },
  responses: { 201: { description: 'provisioned', schema: merchantCredentialsResponseSchema } },
  errors: [400, 401, 409, 413, 415, 503],
  errorEnvelope: successError,
};
