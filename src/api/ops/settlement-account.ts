import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { auditTrail } from '../../usecases/audit-trail';
import { linkSubMerchant } from '../../usecases/link-sub-merchant';
import { settlementAccountUseCases } from '../../usecases/settlement-account';
import type { ApiDeps } from '../deps';
import { operatorAuth } from '../middleware/operator-auth';
import { readJson } from '../middleware/body';
import {
  confirmEarlySchema,
  confirmProposalSchema,
  masterLinkSchema,
  settlementAccountSchema,
} from '../schemas/settlement-merchant';
import { operatorActor } from './audit-actor';

/**
 * Operator API for settlements: a merchant's settlement bank account (proposed by one operator,
 * confirmed by another; a cooling account confirmed early), and its link to a master merchant.
 */
export function opsSettlementAccountRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1/merchants/:merchantIdentifier' });
  router.use(operatorAuth(deps, 'money'));
  const accounts = settlementAccountUseCases(deps);
  const origin = (ctx: Context) => ({ actor: operatorActor(ctx), from: ctx.ip || null });

  // An operator's change is a proposal: nothing is paid to it until a second operator confirms it.
  router.put('/settlement-account', async (ctx) => {
    const { body } = await readJson(ctx, settlementAccountSchema, deps.config.MAX_BODY_BYTES);
    const merchantIdentifier = ctx.params.merchantIdentifier;
    const view = await accounts.propose(merchantIdentifier, body, origin(ctx));
    if (!view) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier, by: operatorActor(ctx) }, 'settlement account change proposed');
    ctx.status = 202;
    ctx.body = { success: true, data: view };
  });

  router.post('/settlement-account/confirm', async (ctx) => {
    const { body } = await readJson(ctx, confirmProposalSchema, deps.config.MAX_BODY_BYTES);
    const merchantIdentifier = await known(ctx);
    const result = await accounts.confirm(merchantIdentifier, body, origin(ctx));
    if (result === 'noProposal') throw new ApiError('settlementAccountChangeNotFound');
    if (result === 'notNamed')
      throw new ApiError('settlementAccountConfirmRefused', 'proposedAt, accountLast4: the pending change is not the one named');
    if (result === 'sameOperator')
      throw new ApiError('settlementAccountConfirmRefused', 'the operator who proposed the change cannot confirm it');
    deps.logger.info({ merchantIdentifier, by: operatorActor(ctx) }, 'settlement account changed');
    ctx.body = { success: true, data: result };
  });

  router.post('/settlement-account/confirm-early', async (ctx) => {
    const { body } = await readJson(ctx, confirmEarlySchema, deps.config.MAX_BODY_BYTES);
    const merchantIdentifier = await known(ctx);
    const result = await accounts.confirmEarly(merchantIdentifier, body.accountLast4, origin(ctx));
    if (result === 'notCooling')
      throw new ApiError('settlementAccountConfirmRefused', 'accountLast4: no account ending so is cooling');
    if (result === 'proposer')
      throw new ApiError('settlementAccountConfirmRefused', 'the operator who proposed the change cannot end its cooling');
    deps.logger.info({ merchantIdentifier, by: operatorActor(ctx) }, 'settlement account confirmed early');
    ctx.body = { success: true, data: result };
  });

  router.get('/settlement-account', async (ctx) => {
    ctx.body = { success: true, data: await accounts.view(await known(ctx)) };
  });

  async function known(ctx: Context): Promise<string> {
    const merchantIdentifier = (ctx.params as Record<string, string>).merchantIdentifier;
    if (!(await deps.merchants.findById(merchantIdentifier))) throw new ApiError('merchantNotFound');
    return merchantIdentifier;
  }

  router.put('/master', async (ctx) => {
    const { body } = await readJson(ctx, masterLinkSchema, deps.config.MAX_BODY_BYTES);
    if (body.masterMerchantIdentifier === null && body.customIdentifier !== undefined)
      throw new ApiError('validationFailed', 'customIdentifier: an unlinked merchant has no custom identifier');
    const result = await linkSubMerchant(
      deps.store.db,
      ctx.params.merchantIdentifier,
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
    await auditTrail(deps.store.db, deps.now).record('sub_merchant.linked', operatorActor(ctx), {
      merchantIdentifier: ctx.params.merchantIdentifier,
      from: ctx.ip || null,
      detail: { masterMerchantIdentifier: body.masterMerchantIdentifier, customIdentifier: body.customIdentifier ?? null },
    });
    ctx.body = { success: true, data: result };
  });
  return router;
}
