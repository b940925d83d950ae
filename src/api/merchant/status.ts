import Router from '@koa/router';
import { BusinessResults } from '../../domain/api-errors';
import { readOrder } from '../../usecases/read-order';
import type { ApiDeps } from '../deps';
import { authenticateHeaderChecksum } from '../middleware/authenticate';
import { parseJsonBody, readRawBody, validate } from '../middleware/body';
import { DEFAULT_STATUS_VERSION, statusCallerSchema, statusRequestSchema, type StatusResponse } from '../schemas/status';

/** POST /api/payments/v1/status: one order's status and refunds, in the status envelope. */
export function statusRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/api/payments/v1/status', async (ctx) => {
    const raw = await readRawBody(ctx, 'application/json', deps.config.MAX_BODY_BYTES);
    const parsed = parseJsonBody(raw);
    // Authenticated before the rest is validated: a caller without the key learns nothing of the
    // rules. A valid request (nearly every one) is parsed once, its errors then being none to hide.
    const valid = statusRequestSchema.safeParse(parsed);
    const { merchantIdentifier } = valid.success ? valid.data : validate(statusCallerSchema, parsed);
    const merchant = await authenticateHeaderChecksum(ctx, deps.merchants, merchantIdentifier, raw, deps.now());
    await deps.rateLimit.consume(ctx, 'status', merchant.merchantIdentifier);
    const body = valid.success ? valid.data : validate(statusRequestSchema, parsed);
    // Looked up under the authenticated merchant: another merchant's order is simply not found.
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId };
    const record = await readOrder(deps, order);
    const result = record ? BusinessResults.statusFound : BusinessResults.orderNotFound;
    const response: StatusResponse = {
      status: record !== null,
      message: { code: result.code, text: result.text },
      data: {
        success: record !== null,
        merchantIdentifier: merchant.merchantIdentifier,
        version: String(body.version ?? DEFAULT_STATUS_VERSION),
        orders: record ? [record] : [],
      },
    };
    ctx.body = response;
  });
  return router;
}
