import Router from '@koa/router';
import { ApiError } from '../../domain/api-errors';
import { linkSubMerchant } from '../../usecases/link-sub-merchant';
import { settlementAccountUseCases, settlementAccountView } from '../../usecases/settlement-account';
import type { ApiDeps } from '../deps';
import { operatorAuth } from '../middleware/operator-auth';
import { readJson } from '../middleware/body';
import { masterLinkSchema, settlementAccountSchema } from '../schemas/settlement-merchant';

/** Operator API for settlements: a merchant's settlement bank account, and its link to a master merchant. */
export function opsSettlementAccountRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1/merchants/:merchantIdentifier' });
  router.use(operatorAuth(deps, 'money'));
  const accounts = settlementAccountUseCases(deps.store.db, deps.config.MASTER_KEY);

  router.put('/settlement-account', async (ctx) => {
    const { body } = await readJson(ctx, settlementAccountSchema, deps.config.MAX_BODY_BYTES);
    const merchantIdentifier = ctx.params.merchantIdentifier!;
    const view = await accounts.set(merchantIdentifier, body, deps.now());
    if (!view) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier, by: 'operator' }, 'settlement account set');
    ctx.body = { success: true, data: view };
  });

  router.get('/settlement-account', async (ctx) => {
    const merchantIdentifier = ctx.params.merchantIdentifier!;
    if (!(await deps.merchants.findById(merchantIdentifier))) throw new ApiError('merchantNotFound');
    ctx.body = { success: true, data: settlementAccountView(merchantIdentifier, await accounts.masked(merchantIdentifier)) };
  });

  router.put('/master', async (ctx) => {
    const { body } = await readJson(ctx, masterLinkSchema, deps.config.MAX_BODY_BYTES);
    if (body.masterMerchantIdentifier === null && body.customIdentifier !== undefined)
      throw new ApiError('validationFailed', 'customIdentifier: an unlinked merchant has no custom identifier');
    const result = await linkSubMerchant(
      deps.store.db,
      ctx.params.merchantIdentifier!,
      body.masterMerchantIdentifier,
      body.customIdentifier ?? null,
    );
    if (result === 'merchantNotFound') throw new ApiError('merchantNotFound');
    if (result === 'customIdentifierTaken')
      throw new ApiError('customIdentifierTaken', 'customIdentifier: the master names another sub-merchant so');
    if (result === 'masterNotFound') throw new ApiError('merchantNotFound', 'masterMerchantIdentifier: no such merchant');
    if (typeof result === 'string')
      throw new ApiError(
        'subMerchantLinkRefused',
        result === 'selfLink'
          ? 'masterMerchantIdentifier: a merchant cannot be its own master'
          : 'masterMerchantIdentifier: that merchant is itself a sub-merchant of another',
      );
    deps.logger.info(result, 'sub-merchant link changed');
    ctx.body = { success: true, data: result };
  });
  return router;
}
