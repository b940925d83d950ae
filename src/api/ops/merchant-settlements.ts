import { z } from 'zod';
import { ApiError } from '../../domain/api-errors';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation } from '../operation';
import { pathParameter } from '../reference/examples';
import { jsonSchema, successError } from '../reference/operation';

/** `?limit`: how many of the latest settlements (the merchant's own list allows as many). */
const merchantSettlementsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('how many of the latest settlements (1 to 100)'),
});

const settlementRecord = z
  .object({ _id: z.string(), merchantIdentifier: z.string(), settlementDate: z.string(), state: z.string() })
  .loose();

/**
 * GET /ops/v1/merchants/:merchantIdentifier/settlements: the merchant's latest settlements, newest
 * date first, each as `GET /ops/v1/settlements/:settlementId` answers it, so an operator asked
 * about a merchant's money sees its recent settlements and their states without knowing their dates.
 */
export const merchantSettlementsOperation = defineOperation({
  method: 'get',
  path: '/ops/v1/merchants/:merchantIdentifier/settlements',
  envelope: 'success',
  auth: operatorToken('money'),
  body: { contentType: 'none' },
  query: merchantSettlementsQuerySchema,
  reference: {
    summary: "A merchant's latest settlements, newest date first (operator)",
    description:
      'Each settlement as `GET /ops/v1/settlements/{settlementId}` answers it: its state, totals, carried balances, UTR and payout, why it is held or failed. `?limit` (1 to 100, default 20); older ones by id, `settlement:<merchantIdentifier>:<yyyy-MM-dd>`. Unknown merchant: 404, code 2042.',
    example: {},
    responses: {
      200: {
        description: 'the settlements, newest date first',
        schema: z.object({
          success: z.literal(true),
          data: z.object({ merchantIdentifier: z.string(), settlements: z.array(settlementRecord) }),
        }),
      },
    },
    errors: [400, 401, 404, 503],
    errorEnvelope: successError,
    parameters: [
      { ...pathParameter('merchantIdentifier'), schema: { type: 'string', pattern: '^[A-Za-z0-9]{6,64}$' } },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: jsonSchema(merchantSettlementsQuerySchema.shape.limit, 'input'),
        example: '10',
      },
    ],
  },
  async handle({ params, query }, deps) {
    const { merchantIdentifier } = params;
    const settlements = await deps.useCases.ops.merchantSettlements(merchantIdentifier, query.limit);
    if (!settlements) throw new ApiError('merchantNotFound');
    return { success: true, data: { merchantIdentifier, settlements } };
  },
});
