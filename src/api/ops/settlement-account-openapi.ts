import type { OperationReference } from '../operation';
import { pathParameter } from '../reference/examples';
import { successError } from '../reference/operation';
import { masterLinkDocSchema, masterLinkResponseSchema, settlementAccountResponseSchema } from '../schemas/settlement-merchant';

/*
 * The operator's settlement settings of a merchant: its settlement bank account (proposed, read,
 * confirmed, its cooling ended early) and its master merchant.
 */

const merchantIdentifierParam = {
  ...pathParameter('merchantIdentifier'),
  schema: { type: 'string', pattern: '^[A-Za-z0-9]{6,64}$' },
};

/** A merchant's settlement account proposed. */
export const settlementAccountProposeReference: OperationReference = {
  summary: "Propose a merchant's settlement bank account (operator; a second operator confirms)",
  description:
    "Where the merchant's settlements are to be paid. IFSC: 4 capital letters, 0, 6 capital letters or digits; account number 9 to 18 digits; the holder's name as the bank knows it. An operator's change is only a proposal (202, `pendingChange`, replacing any earlier one): it applies when a different operator confirms it (`POST .../settlement-account/confirm`). A changed account (not a first one) cools: payouts to it wait SETTLEMENT_ACCOUNT_COOLING_HOURS unless an operator confirms it early. The account number is sealed at rest (AES-256-GCM, bound to the merchant) and answered masked. The dashboard's owners change the same through Settlements > Bank account, with their password. Unknown merchant: 404, code 2042.",
  example: { ifsc: 'HDFC0001234', accountNumber: '50100123456789', holderName: 'Meera Stores' },
  responses: {
    202: { description: 'proposed: the account and the pending change, masked', schema: settlementAccountResponseSchema },
  },
  errors: [400, 401, 404, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [merchantIdentifierParam],
};

/** A merchant's settlement account, masked. */
export const settlementAccountReadReference: OperationReference = {
  summary: "A merchant's settlement bank account and any proposed change, masked (operator)",
  description: 'null when none is set; `changedBy` and `coolingUntil` tell the last change. Unknown merchant: 404, code 2042.',
  example: {},
  responses: { 200: { description: 'the account, masked', schema: settlementAccountResponseSchema } },
  errors: [401, 404, 503],
  errorEnvelope: successError,
  parameters: [merchantIdentifierParam],
};

/** A proposed account confirmed by another operator. */
export const settlementAccountConfirmReference: OperationReference = {
  summary: "Confirm another operator's proposed settlement bank account (operator)",
  description:
    'Names the pending change it confirms, as the GET shows it (`pendingChange.proposedAt` and `.accountLast4`), and applies it: it becomes the account (a replaced account cools, see PUT). Refused with 409 (2068), changing nothing, when the pending change is not the one named (a later PUT replaced it) or the operator who proposed it confirms; no pending change, or one proposed more than 24 hours ago: 404 (2067). Recorded in the audit trail (`settlement_account.changed`, naming both operators).',
  example: { proposedAt: '2026-04-01T10:00:00.000Z', accountLast4: '6789' },
  responses: { 200: { description: 'the account, masked', schema: settlementAccountResponseSchema } },
  errors: [400, 401, 404, 409, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [merchantIdentifierParam],
};

/** A changed account's cooling ended early. */
export const settlementAccountConfirmEarlyReference: OperationReference = {
  summary: "End a changed settlement account's cooling after checking it with the merchant (operator)",
  description:
    'Payouts to the account (named by its last four digits) no longer wait, and the settlements waiting for it go on at once. 409 (2068) when no account ending so is cooling, or when the operator asking proposed that change. Recorded in the audit trail (`settlement_account.confirmed`).',
  example: { accountLast4: '6789' },
  responses: { 200: { description: 'the account, masked', schema: settlementAccountResponseSchema } },
  errors: [400, 401, 404, 409, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [merchantIdentifierParam],
};

/** A sub-merchant linked to its master. */
export const masterLinkReference: OperationReference = {
  summary: 'Link a sub-merchant to its master merchant for split payments (operator)',
  description:
    "The master's split API may then give this merchant shares of its orders. `customIdentifier` is the master's own name for it, which the master's split requests may send with `isCustomIdentifier: true` (one sub-merchant per name and master: another one's name is 409, 2062); a link without it has none. `null` removes the link and its name (splits already recorded stay). Refused with 409 (2061) when the master is the merchant itself or is itself a sub-merchant (splits do not chain). Unknown merchant or master: 404, code 2042.",
  request: masterLinkDocSchema,
  example: { masterMerchantIdentifier: null },
  responses: { 200: { description: 'the link as it now stands', schema: masterLinkResponseSchema } },
  errors: [400, 401, 404, 409, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [merchantIdentifierParam],
};
