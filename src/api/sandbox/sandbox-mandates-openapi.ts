import { SANDBOX_MANDATE_PAYERS } from '../../domain/sandbox-bank';
import { EXAMPLE_MERCHANT } from '../reference/examples';
import type { OperationReference } from '../operation';
import { sandboxMandateRevokeResponseSchema } from '../schemas/sandbox-mandates';

/** The sandbox payer of a mandate. */
export const sandboxMandateRevokeReference: OperationReference = {
  summary: 'Revoke an active mandate as its sandbox payer',
  description: `The payer revokes the mandate (named by its create orderId): it becomes REVOKED and every debit still scheduled under it is cancelled (1124). Sandbox payers: ${Object.keys(
    SANDBOX_MANDATE_PAYERS,
  ).join(
    ', ',
  )} (approves; declines; approves but every debit fails; approves but every notify is refused with 1110). Refused with HTTP 200 and success false: 2036 no such mandate, 2037 not ACTIVE.`,
  example: { merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier, orderId: 'mandate-1001' },
  responses: { 200: { description: 'revoked, or refused (2036, 2037)', schema: sandboxMandateRevokeResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: sandboxMandateRevokeResponseSchema,
};
