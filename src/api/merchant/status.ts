import { BusinessResults } from '../../domain/api-errors';
import { headerChecksum } from '../operation-auth';
import { defineOperation } from '../operation';
import { DEFAULT_STATUS_VERSION, statusCallerSchema, statusRequestSchema, type StatusResponse } from '../schemas/status';
import { statusReference } from './status-openapi';

/** POST /api/payments/v1/status: one order's status and refunds, in the status envelope. */
export const statusOperation = defineOperation({
  method: 'post',
  path: '/api/payments/v1/status',
  envelope: 'status',
  auth: headerChecksum(statusCallerSchema, [{ statusChecksum: [] }]),
  body: { contentType: 'application/json', schema: statusRequestSchema },
  limit: 'status',
  reference: statusReference,
  async handle({ caller: merchant, body }, deps): Promise<StatusResponse> {
    // Looked up under the authenticated merchant: another merchant's order is simply not found.
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId };
    const record = await deps.useCases.merchant.readOrder(order);
    const result = record ? BusinessResults.statusFound : BusinessResults.orderNotFound;
    return {
      status: record !== null,
      message: { code: result.code, text: result.text },
      data: {
        success: record !== null,
        merchantIdentifier: merchant.merchantIdentifier,
        version: String(body.version ?? DEFAULT_STATUS_VERSION),
        orders: record ? [record] : [],
      },
    };
  },
});
