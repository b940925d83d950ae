import Router from '@koa/router';
import { BusinessResults } from '../../domain/api-errors';
import { TxnStatus } from '../../domain/txn-status';
import { applyChargeback } from '../../usecases/chargeback';
import { auditTrail } from '../../usecases/audit-trail';
import type { ApiDeps } from '../deps';
import { operatorActor } from './audit-actor';
import { failureBody } from '../envelope';
import { operatorAuth } from '../middleware/operator-auth';
import { readJson } from '../middleware/body';
import { chargebackSchema } from '../schemas/chargebacks';

const REFUSALS = {
  notAllowed: BusinessResults.chargebackNotAllowed,
  amountExceeds: BusinessResults.chargebackAmountExceeds,
  amountDiffers: BusinessResults.chargebackAmountDiffers,
} as const;

/** POST /ops/v1/chargebacks: an operator records a chargeback the bank raised, or its revert. */
export function chargebackRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1' });
  router.use(operatorAuth(deps, 'money'));
  const trail = auditTrail(deps.store.db, deps.now);
  router.post('/chargebacks', async (ctx) => {
    const { body } = await readJson(ctx, chargebackSchema, deps.config.MAX_BODY_BYTES);
    const order = { merchantIdentifier: body.merchantIdentifier, orderId: body.orderId };
    const result = await applyChargeback(deps, order, body.action, body.amount);
    if (result.kind === 'unknownOrder') {
      ctx.body = failureBody('success', BusinessResults.orderNotFound.code, BusinessResults.orderNotFound.text);
      return;
    }
    if (result.kind === 'refused') {
      const r = REFUSALS[result.refusal];
      ctx.body = failureBody('success', r.code, r.text);
      return;
    }
    const t = result.transaction;
    deps.logger.info({ ...order, action: body.action, status: t.status }, 'chargeback recorded');
    await trail.record(body.action === 'raise' ? 'chargeback.raised' : 'chargeback.reverted', operatorActor(ctx), {
      merchantIdentifier: body.merchantIdentifier,
      from: ctx.ip || null,
      detail: { orderId: body.orderId, amountPaise: body.amount, txnStatus: String(TxnStatus[t.status]) },
    });
    ctx.body = {
      success: true,
      data: { ...order, txnStatus: String(TxnStatus[t.status]), chargebackAmount: String(t.chargeback!.amountPaise) },
    };
  });
  return router;
}
