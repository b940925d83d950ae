import { operation, successError } from '../openapi';
import { merchantSettingsResponseSchema, merchantSettingsSchema } from '../schemas/ops';

const merchantIdentifierParam = {
  name: 'merchantIdentifier',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
};

/** Operator operations beyond provisioning. */
export function opsPaths(): Record<string, object> {
  return {
    '/ops/v1/merchants/{merchantIdentifier}': {
      patch: {
        ...operation({
          summary: "Change a merchant's webhook address, webhook body format or auto-refund (operator)",
          description:
            'Only the fields sent change; `webhookUrl: null` removes the address. Other API replicas see the change within MERCHANT_CACHE_SECONDS. Unknown merchant: 404, code 2042.',
          security: [{ operatorToken: [] }],
          request: merchantSettingsSchema,
          responses: { 200: { description: 'the settings as they now stand', schema: merchantSettingsResponseSchema } },
          errors: [400, 401, 404, 413, 415, 503],
          errorEnvelope: successError,
        }),
        parameters: [merchantIdentifierParam],
      },
    },
  };
}
