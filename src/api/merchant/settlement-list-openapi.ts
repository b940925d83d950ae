import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';
import {
  SETTLEMENT_LIST_DEFAULT_COUNT,
  SETTLEMENT_LIST_MAX_COUNT,
  settlementListResponseSchema,
} from '../schemas/settlement-merchant';

/** The settlement list's entry in the API reference (its operation: settlement-list.ts). */
export const settlementListReference: OperationReference = {
  summary: "The merchant's latest settlements, newest date first",
  description: `Header \`X-API-Key\`. JSON \`{count}\` (1 to ${SETTLEMENT_LIST_MAX_COUNT}, default ${SETTLEMENT_LIST_DEFAULT_COUNT}; \`{}\` takes the default): one entry per settlement date, whatever its state (\`open\` until its payout is requested, then \`payout_requested\`, \`paid\`, \`carried_forward\` when its net was zero or negative, \`payout_refused\`, \`held\`), with the figures of the \`settlement.processed\` webhook: money in rupees with two decimals as text, \`utr\` and \`paidAt\` (IST) empty until paid. \`settlementDate\` is the \`utr_date\` the Settlement API (POST /api/v2/getSettlementReport) takes for the settlement's lines. No settlement yet: an empty list.`,
  example: { count: 5 },
  responses: { 200: { description: 'the settlements (possibly none)', schema: settlementListResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};
