import Router from '@koa/router';
import { ApiError } from '../../domain/api-errors';
import { auditTrail } from '../../usecases/audit-trail';
import { settlementOperations } from '../../usecases/settlement-operations';
import { operatorActor } from './audit-actor';
import type { ApiDeps } from '../deps';
import { operatorAuth } from '../middleware/operator-auth';
import { readJson, validate } from '../middleware/body';
import { noBodySchema } from '../schemas/keys';
import { differencesQuerySchema, feePlanSchema, settlementRunSchema } from '../schemas/settlements';

/**
 * The operator's side of settlements (docs/operators/settlements.md): a merchant's fee plan, hold
 * and release, running a date, a settlement by id, what needs attention (every settlement not
 * final in time, refused, held, not started, bank files) and the bank files' differences.
 */
export function opsSettlementRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1' });
  router.use(operatorAuth(deps, 'money'));
  const ops = settlementOperations(deps);
  const trail = auditTrail(deps.store.db, deps.now);

  const knownMerchant = async (merchantIdentifier: string) => {
    if (!(await deps.merchants.findById(merchantIdentifier))) throw new ApiError('merchantNotFound');
    return merchantIdentifier;
  };

  router.get('/merchants/:merchantIdentifier/fee-plan', async (ctx) => {
    const m = await knownMerchant(ctx.params.merchantIdentifier);
    ctx.body = { success: true, data: { merchantIdentifier: m, ...(await ops.feePlanOf(m)) } };
  });
  router.put('/merchants/:merchantIdentifier/fee-plan', async (ctx) => {
    const { body } = await readJson(ctx, feePlanSchema, deps.config.MAX_BODY_BYTES);
    const m = await knownMerchant(ctx.params.merchantIdentifier);
    await ops.setFeePlan(m, body);
    deps.logger.info({ merchantIdentifier: m }, 'fee plan set');
    await trail.record('fee_plan.set', operatorActor(ctx), {
      merchantIdentifier: m,
      from: ctx.ip || null,
      detail: { feePlan: JSON.stringify(body) },
    });
    ctx.body = { success: true, data: { merchantIdentifier: m, source: 'merchant', feePlan: body } };
  });
  router.post('/merchants/:merchantIdentifier/settlements/hold', async (ctx) => {
    // No body, or {}: anything else is refused before the merchant's settlements change.
    if (ctx.request.length || ctx.get('transfer-encoding')) await readJson(ctx, noBodySchema, deps.config.MAX_BODY_BYTES);
    const m = await knownMerchant(ctx.params.merchantIdentifier);
    const { payoutRequested } = await ops.hold(m);
    deps.logger.info({ merchantIdentifier: m, payoutRequested }, 'settlements held');
    await trail.record('settlements.held', operatorActor(ctx), { merchantIdentifier: m, from: ctx.ip || null });
    ctx.body = { success: true, data: { merchantIdentifier: m, held: true, payoutRequested } };
  });
  router.post('/merchants/:merchantIdentifier/settlements/release', async (ctx) => {
    // No body, or {}: anything else is refused before the merchant's settlements change.
    if (ctx.request.length || ctx.get('transfer-encoding')) await readJson(ctx, noBodySchema, deps.config.MAX_BODY_BYTES);
    const m = await knownMerchant(ctx.params.merchantIdentifier);
    const released = await ops.release(m);
    deps.logger.info({ merchantIdentifier: m, released }, 'settlements released');
    await trail.record('settlements.released', operatorActor(ctx), { merchantIdentifier: m, from: ctx.ip || null });
    ctx.body = { success: true, data: { merchantIdentifier: m, held: false, released } };
  });
  router.post('/merchants/:merchantIdentifier/settlements/run', async (ctx) => {
    const { body } = await readJson(ctx, settlementRunSchema, deps.config.MAX_BODY_BYTES);
    const m = await knownMerchant(ctx.params.merchantIdentifier);
    const run = await ops.run(m, body.date);
    deps.logger.info({ merchantIdentifier: m, ...run }, 'settlement run');
    await trail.record('settlements.run', operatorActor(ctx), {
      merchantIdentifier: m,
      from: ctx.ip || null,
      detail: { date: body.date, outcome: run.outcome },
    });
    ctx.body = { success: true, data: { merchantIdentifier: m, ...run } };
  });
  router.get('/settlements/needs-attention', async (ctx) => {
    ctx.body = { success: true, data: await ops.needsAttention() };
  });
  router.get('/settlements/differences', async (ctx) => {
    const q = validate(differencesQuerySchema, ctx.query);
    ctx.body = { success: true, data: { differences: await ops.differences(q.date, q.limit) } };
  });
  router.get('/settlements/:settlementId', async (ctx) => {
    const s = await ops.find(ctx.params.settlementId);
    if (!s) throw new ApiError('settlementNotFound');
    ctx.body = { success: true, data: s };
  });
  return router;
}
