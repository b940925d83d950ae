import Router from '@koa/router';
import { ApiError, BusinessResults } from '../../domain/api-errors';
import { cardIdentifier, cardIdKey } from '../../domain/card';
import { sandboxInstrument } from '../../domain/sandbox-bank';
import { extraProductDescriptions } from '../../domain/transaction';
import { TxnStatus } from '../../domain/txn-status';
import { readOrder } from '../../usecases/read-order';
import { startPayment, startPaymentDeps } from '../../usecases/start-payment';
import type { ApiDeps } from '../deps';
import { failureBody } from '../envelope';
import { requireMerchant } from '../middleware/authenticate';
import { readJson } from '../middleware/body';
import { sandboxPaymentSchema } from '../schemas/sandbox';

/**
 * POST /sandbox/v1/payments: a tester plays the payer. The order is created and paid with a test
 * instrument; the answer carries the txnId at once and the outcome arrives through the workflow.
 */
export function sandboxRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/sandbox/v1/payments', async (ctx) => {
    const { body } = await readJson(ctx, sandboxPaymentSchema, deps.config.MAX_BODY_BYTES);
    const instrument = sandboxInstrument(body, (pan) => cardIdentifier(pan, cardIdKey(deps.config.MASTER_KEY)));
    if (!instrument.ok) throw new ApiError('validationFailed', instrument.problem);
    const merchant = await requireMerchant(deps.merchants, body.merchantIdentifier);
    await deps.rateLimit.consume(ctx, 'sandbox', merchant.merchantIdentifier);

    const result = await startPayment(startPaymentDeps(deps), {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: body.orderId,
      amountPaise: body.amount,
      productDescription: body.productDescription,
      ...extraProductDescriptions(body),
      buyerName: body.buyerName ?? null,
      buyerEmail: body.buyerEmail ?? null,
      ipAddress: ctx.ip || null,
      instrument: instrument.instrument,
    });

    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId };
    if (result.kind === 'taken') {
      // A mandate, or a mandate's first debit still to come (Pending until it is made).
      const held = await readOrder(deps, order);
      const c = BusinessResults.orderConflict;
      const data = { ...order, txnId: held?.orderDetail.txnId ?? result.txnId, txnStatus: held?.txnStatus ?? '2' };
      ctx.body = { ...failureBody('success', c.code, c.text), data };
      return;
    }
    const t = result.transaction;
    const data = { ...order, txnId: t.txnId, txnStatus: String(TxnStatus[t.status]) };
    if (result.kind === 'conflict') {
      const c = BusinessResults.orderConflict;
      ctx.body = { ...failureBody('success', c.code, c.text), data };
      return;
    }
    ctx.status = result.kind === 'started' ? 202 : 200;
    ctx.body = { success: true, data };
  });
  return router;
}
