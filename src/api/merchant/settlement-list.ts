import type { Settlement } from '../../domain/settlement';
import { settlementFigures } from '../../domain/settlement-webhook';
import { defineOperation } from '../operation';
import { apiKey } from '../operation-auth';
import {
  SETTLEMENT_LIST_DEFAULT_COUNT,
  settlementListRequestSchema,
  type SettlementListEntry,
} from '../schemas/settlement-merchant';
import { settlementListReference } from './settlement-list-openapi';

/**
 * POST /api/v1/settlements (`X-API-Key`): the merchant's latest settlements, newest date first, with
 * the figures the `settlement.processed` webhook carries, so a merchant that opted in late (or
 * missed a call) finds its payouts, and the dates to ask the Settlement API for their lines.
 */
export const settlementListOperation = defineOperation({
  method: 'post',
  path: '/api/v1/settlements',
  envelope: 'success',
  auth: apiKey,
  body: { contentType: 'application/json', schema: settlementListRequestSchema },
  limit: 'settlements',
  reference: settlementListReference,
  async handle({ caller: merchant, body }, deps) {
    const latest = await deps.useCases.merchant.latestSettlements(
      merchant.merchantIdentifier,
      body.count ?? SETTLEMENT_LIST_DEFAULT_COUNT,
    );
    return { success: true, data: { settlements: latest.map(listEntry) } };
  },
});

function listEntry(s: Settlement): SettlementListEntry {
  const { settlementDate, ...figures } = settlementFigures(s);
  // The id, the date and the state first, as the reference shows the entry.
  return { settlementId: s._id, settlementDate, state: s.state, ...figures };
}
