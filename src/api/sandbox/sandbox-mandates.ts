import Router from '@koa/router';
import { BusinessResults } from '../../domain/api-errors';
import { revokeMandate } from '../../usecases/revoke-mandate';
import type { ApiDeps } from '../deps';
import { failureBody } from '../envelope';
import { requireMerchant } from '../middleware/authenticate';
import { readJson } from '../middleware/body';
import { sandboxMandateRevokeSchema } from '../schemas/sandbox-mandates';

/** POST /sandbox/v1/mandates/revoke: a tester plays the payer revoking an active mandate. */
export function sandboxMandateRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/sandbox/v1/mandates/revoke', async (ctx) => {
    const { body } = await readJson(ctx, sandboxMandateRevokeSchema, deps.config.MAX_BODY_BYTES);
    const merchant = await requireMerchant(deps.merchants, body.merchantIdentifier);
    await deps.rateLimit.consume(ctx, 'sandbox', merchant.merchantIdentifier);
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId };
    const result = await revokeMandate(deps, order);
    if (result.kind === 'unknownMandate') {
      ctx.body = failureBody('success', BusinessResults.mandateNotFound.code, BusinessResults.mandateNotFound.text);
      return;
    }
    const data = { ...order, state: result.state };
    if (result.kind === 'notActive') {
      const refusal = BusinessResults.mandateNotActive;
      ctx.body = { ...failureBody('success', refusal.code, `${refusal.text}: it is ${result.state}`), data };
      return;
    }
    ctx.body = { success: true, data };
  });
  return router;
}
