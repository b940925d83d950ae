import Router from '@koa/router';
import { BusinessResults } from '../../domain/api-errors';
import { SANDBOX_VPAS } from '../../domain/sandbox-bank';
import { payQr } from '../../usecases/pay-qr';
import { findCheckoutOfOrder } from '../../usecases/checkout-of-order';
import type { ApiDeps } from '../deps';
import { failureBody } from '../envelope';
import { requireMerchant } from '../middleware/authenticate';
import { readJson } from '../middleware/body';
import { sandboxQrPaySchema } from '../schemas/qr';

/** POST /sandbox/v1/qr/pay: a tester scans an open dynamic QR (or a hosted checkout's) and pays it with a test VPA. */
export function sandboxQrRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/sandbox/v1/qr/pay', async (ctx) => {
    const { body } = await readJson(ctx, sandboxQrPaySchema, deps.config.MAX_BODY_BYTES);
    const merchant = await requireMerchant(deps.merchants, body.merchantIdentifier);
    await deps.rateLimit.consume(ctx, 'sandbox', merchant.merchantIdentifier);
    const vpa = body.payerVpa;
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId };
    const checkout = await findCheckoutOfOrder(deps, order);
    const result = await payQr(
      deps,
      order,
      { kind: 'UPI', vpa, bankName: SANDBOX_VPAS[vpa].bankName, viaQr: true },
      {
        checkout: checkout !== null,
      },
    );
    if (result.kind === 'unknownOrder') {
      ctx.body = failureBody('success', BusinessResults.orderNotFound.code, BusinessResults.orderNotFound.text);
      return;
    }
    const data = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId, txnId: result.transaction.txnId };
    if (result.kind !== 'accepted') {
      const refusal = result.kind === 'notQr' ? BusinessResults.notQrOrder : BusinessResults.qrNotOpen;
      ctx.body = { ...failureBody('success', refusal.code, refusal.text), data };
      return;
    }
    ctx.status = 202;
    ctx.body = { success: true, data };
  });
  return router;
}
