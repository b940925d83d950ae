import { ApiError } from '../../domain/api-errors';
import type { ApiDeps } from '../deps';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation, type OperationReference } from '../operation';
import { noBodySchema } from '../schemas/keys';
import { differencesQuerySchema, feePlanSchema, settlementRunSchema } from '../schemas/settlements';
import { recordByOperator } from './audit-actor';
import {
  differencesReference,
  feePlanReadReference,
  feePlanSetReference,
  holdReference,
  needsAttentionReference,
  releaseReference,
  runReference,
  settlementReference,
} from './settlements-openapi';

/*
 * The operator's side of settlements (docs/operators/settlements.md): a merchant's fee plan, hold
 * and release, running a date, a settlement by id, what needs attention (every settlement not
 * final in time, refused, held, not started, bank files) and the bank files' differences.
 */

async function knownMerchant(deps: ApiDeps, merchantIdentifier: string): Promise<string> {
  if (!(await deps.useCases.ops.merchantExists(merchantIdentifier))) throw new ApiError('merchantNotFound');
  return merchantIdentifier;
}

const MERCHANT = '/ops/v1/merchants/:merchantIdentifier';
const common = { envelope: 'success', auth: operatorToken('money') } as const;
/** A read without a body. */
const read = (path: string, reference: OperationReference) =>
  ({ ...common, method: 'get', path, body: { contentType: 'none' }, reference }) as const;
/** No body, or {}: anything else is refused before the merchant's settlements change. */
const noBody = { contentType: 'application/json', schema: noBodySchema, optional: true } as const;

export const feePlanReadOperation = defineOperation({
  ...read(`${MERCHANT}/fee-plan`, feePlanReadReference),
  async handle({ params }, deps) {
    const m = await knownMerchant(deps, params.merchantIdentifier);
    return { success: true, data: { merchantIdentifier: m, ...(await deps.useCases.ops.feePlanOf(m)) } };
  },
});

export const feePlanSetOperation = defineOperation({
  ...common,
  method: 'put',
  path: `${MERCHANT}/fee-plan`,
  body: { contentType: 'application/json', schema: feePlanSchema },
  reference: feePlanSetReference,
  async handle(request, deps) {
    const { body } = request;
    const m = await knownMerchant(deps, request.params.merchantIdentifier);
    await deps.useCases.ops.setFeePlan(m, body);
    deps.logger.info({ merchantIdentifier: m }, 'fee plan set');
    await recordByOperator(deps, request, 'fee_plan.set', m, { feePlan: JSON.stringify(body) });
    return { success: true, data: { merchantIdentifier: m, source: 'merchant', feePlan: body } };
  },
});

export const holdOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/settlements/hold`,
  body: noBody,
  reference: holdReference,
  async handle(request, deps) {
    const m = await knownMerchant(deps, request.params.merchantIdentifier);
    const { payoutRequested } = await deps.useCases.ops.holdSettlements(m);
    deps.logger.info({ merchantIdentifier: m, payoutRequested }, 'settlements held');
    await recordByOperator(deps, request, 'settlements.held', m);
    return { success: true, data: { merchantIdentifier: m, held: true, payoutRequested } };
  },
});

export const releaseOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/settlements/release`,
  body: noBody,
  reference: releaseReference,
  async handle(request, deps) {
    const m = await knownMerchant(deps, request.params.merchantIdentifier);
    const released = await deps.useCases.ops.releaseSettlements(m);
    deps.logger.info({ merchantIdentifier: m, released }, 'settlements released');
    await recordByOperator(deps, request, 'settlements.released', m);
    return { success: true, data: { merchantIdentifier: m, held: false, released } };
  },
});

export const runOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/settlements/run`,
  body: { contentType: 'application/json', schema: settlementRunSchema },
  reference: runReference,
  async handle(request, deps) {
    const { body } = request;
    const m = await knownMerchant(deps, request.params.merchantIdentifier);
    const run = await deps.useCases.ops.runSettlement(m, body.date);
    deps.logger.info({ merchantIdentifier: m, ...run }, 'settlement run');
    await recordByOperator(deps, request, 'settlements.run', m, { date: body.date, outcome: run.outcome });
    return { success: true, data: { merchantIdentifier: m, ...run } };
  },
});

export const needsAttentionOperation = defineOperation({
  ...read('/ops/v1/settlements/needs-attention', needsAttentionReference),
  handle: async (_request, deps) => ({ success: true, data: await deps.useCases.ops.settlementsNeedingAttention() }),
});

export const differencesOperation = defineOperation({
  ...read('/ops/v1/settlements/differences', differencesReference),
  query: differencesQuerySchema,
  async handle({ query: q }, deps) {
    return { success: true, data: { differences: await deps.useCases.ops.settlementDifferences(q.date, q.limit) } };
  },
});

/** Declared after needs-attention and differences, whose addresses it would otherwise take. */
export const settlementOperation = defineOperation({
  ...read('/ops/v1/settlements/:settlementId', settlementReference),
  async handle({ params }, deps) {
    const s = await deps.useCases.ops.findSettlement(params.settlementId);
    if (!s) throw new ApiError('settlementNotFound');
    return { success: true, data: s };
  },
});

/** In the order they are matched (and documented). */
export const settlementOperationsDeclared = [
  feePlanReadOperation,
  feePlanSetOperation,
  holdOperation,
  releaseOperation,
  runOperation,
  needsAttentionOperation,
  differencesOperation,
  settlementOperation,
];
