import { ApiError } from '../../domain/api-errors';
import type { OperatorIdentity } from '../../domain/operator-token';
import type { ApiDeps } from '../deps';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation, HttpAnswer } from '../operation';
import {
  confirmEarlySchema,
  confirmProposalSchema,
  masterLinkSchema,
  settlementAccountSchema,
} from '../schemas/settlement-merchant';
import { operatorActor, recordByOperator } from './audit-actor';
import {
  masterLinkReference,
  settlementAccountConfirmEarlyReference,
  settlementAccountConfirmReference,
  settlementAccountProposeReference,
  settlementAccountReadReference,
} from './settlement-account-openapi';

/*
 * Operator API for settlements: a merchant's settlement bank account (proposed by one operator,
 * confirmed by another; a cooling account confirmed early), and its link to a master merchant.
 */

const origin = (request: { caller: OperatorIdentity; ip: string | null }) => ({
  actor: operatorActor(request.caller),
  from: request.ip,
});
const MERCHANT = '/ops/v1/merchants/:merchantIdentifier';
const common = { envelope: 'success', auth: operatorToken('money') } as const;

async function known(deps: ApiDeps, merchantIdentifier: string): Promise<string> {
  if (!(await deps.useCases.ops.merchantExists(merchantIdentifier))) throw new ApiError('merchantNotFound');
  return merchantIdentifier;
}

/** An operator's change is a proposal: nothing is paid to it until a second operator confirms it. */
export const settlementAccountProposeOperation = defineOperation({
  ...common,
  method: 'put',
  path: `${MERCHANT}/settlement-account`,
  body: { contentType: 'application/json', schema: settlementAccountSchema },
  reference: settlementAccountProposeReference,
  async handle(request, deps) {
    const { merchantIdentifier } = request.params;
    const view = await deps.useCases.ops.proposeSettlementAccount(merchantIdentifier, request.body, origin(request));
    if (!view) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier, by: operatorActor(request.caller) }, 'settlement account change proposed');
    return new HttpAnswer({ success: true, data: view }, { status: 202 });
  },
});

export const settlementAccountReadOperation = defineOperation({
  ...common,
  method: 'get',
  path: `${MERCHANT}/settlement-account`,
  body: { contentType: 'none' },
  reference: settlementAccountReadReference,
  handle: async ({ params }, deps) => ({
    success: true,
    data: await deps.useCases.ops.settlementAccount(await known(deps, params.merchantIdentifier)),
  }),
});

export const settlementAccountConfirmOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/settlement-account/confirm`,
  body: { contentType: 'application/json', schema: confirmProposalSchema },
  reference: settlementAccountConfirmReference,
  async handle(request, deps) {
    const merchantIdentifier = await known(deps, request.params.merchantIdentifier);
    const result = await deps.useCases.ops.confirmSettlementAccount(merchantIdentifier, request.body, origin(request));
    if (result === 'noProposal') throw new ApiError('settlementAccountChangeNotFound');
    if (result === 'notNamed')
      throw new ApiError('settlementAccountConfirmRefused', 'proposedAt, accountLast4: the pending change is not the one named');
    if (result === 'sameOperator')
      throw new ApiError('settlementAccountConfirmRefused', 'the operator who proposed the change cannot confirm it');
    deps.logger.info({ merchantIdentifier, by: operatorActor(request.caller) }, 'settlement account changed');
    return { success: true, data: result };
  },
});

export const settlementAccountConfirmEarlyOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/settlement-account/confirm-early`,
  body: { contentType: 'application/json', schema: confirmEarlySchema },
  reference: settlementAccountConfirmEarlyReference,
  async handle(request, deps) {
    const merchantIdentifier = await known(deps, request.params.merchantIdentifier);
    const result = await deps.useCases.ops.confirmSettlementAccountEarly(
      merchantIdentifier,
      request.body.accountLast4,
      origin(request),
    );
    if (result === 'notCooling')
      throw new ApiError('settlementAccountConfirmRefused', 'accountLast4: no account ending so is cooling');
    if (result === 'proposer')
      throw new ApiError('settlementAccountConfirmRefused', 'the operator who proposed the change cannot end its cooling');
    deps.logger.info({ merchantIdentifier, by: operatorActor(request.caller) }, 'settlement account confirmed early');
    return { success: true, data: result };
  },
});

const LINK_REFUSED = {
  selfLink: 'masterMerchantIdentifier: a merchant cannot be its own master',
  chained: 'masterMerchantIdentifier: that merchant is itself a sub-merchant of another',
};

export const masterLinkOperation = defineOperation({
  ...common,
  method: 'put',
  path: `${MERCHANT}/master`,
  body: { contentType: 'application/json', schema: masterLinkSchema },
  reference: masterLinkReference,
  async handle(request, deps) {
    const { body } = request;
    const { merchantIdentifier } = request.params;
    if (body.masterMerchantIdentifier === null && body.customIdentifier !== undefined)
      throw new ApiError('validationFailed', 'customIdentifier: an unlinked merchant has no custom identifier');
    const customIdentifier = body.customIdentifier ?? null;
    const result = await deps.useCases.ops.linkSubMerchant(merchantIdentifier, body.masterMerchantIdentifier, customIdentifier);
    if (result === 'merchantNotFound') throw new ApiError('merchantNotFound');
    if (result === 'customIdentifierTaken')
      throw new ApiError('customIdentifierTaken', 'customIdentifier: the master names another sub-merchant so');
    if (result === 'masterNotFound') throw new ApiError('merchantNotFound', 'masterMerchantIdentifier: no such merchant');
    if (typeof result === 'string')
      throw new ApiError('subMerchantLinkRefused', result === 'selfLink' ? LINK_REFUSED.selfLink : LINK_REFUSED.chained);
    deps.logger.info(result, 'sub-merchant link changed');
    await recordByOperator(deps, request, 'sub_merchant.linked', merchantIdentifier, {
      masterMerchantIdentifier: body.masterMerchantIdentifier,
      customIdentifier,
    });
    return { success: true, data: result };
  },
});

/** The put before the get: the reference lists them so. */
export const settlementAccountOperations = [
  settlementAccountProposeOperation,
  settlementAccountReadOperation,
  settlementAccountConfirmOperation,
  settlementAccountConfirmEarlyOperation,
  masterLinkOperation,
];
