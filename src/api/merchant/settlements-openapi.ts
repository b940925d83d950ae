import { z } from 'zod';
import { hmacSha256Hex } from '../../domain/checksum';
import { SettlementReportCodes, settlementReportChecksumString } from '../../domain/settlement-report';
import { SplitCodes } from '../../domain/split';
import {
  masterLinkDocSchema,
  masterLinkResponseSchema,
  settlementAccountResponseSchema,
  settlementAccountSchema,
  confirmEarlySchema,
  confirmProposalSchema,
  settlementReportRequestSchema,
  settlementReportResponseSchema,
  splitRequestDocSchema,
  splitResponseSchema,
} from '../schemas/settlement-merchant';
import { EXAMPLE_MERCHANT, pathParameter } from '../reference/examples';
import type { OperationReference } from '../operation';
import { operation, successError } from '../reference/operation';

const M = EXAMPLE_MERCHANT.merchantIdentifier;
const merchantIdentifierParam = {
  ...pathParameter('merchantIdentifier'),
  schema: { type: 'string', pattern: '^[A-Za-z0-9]{6,64}$' },
};
const codeTable = (codes: Record<string, { code: string; description: string; http?: number }>) =>
  `\n\n| HTTP | code | meaning |\n|---|---|---|\n${Object.values(codes)
    .map((c) => `| ${c.http ?? 200} | ${c.code} | ${c.description} |`)
    .join('\n')}`;
/** Zaakpay's APIs answer refusals of the request itself with HTTP 200 and the code, as Zaakpay does. */
const CODED_200 =
  '\n\nRefusals are HTTP 200 with the code in this shape, as Zaakpay answers (clients such as axios, or `fetch` checking `r.ok`, read the code instead of throwing): a body that is not JSON is 2001, a field that is not valid 2002. Only a body too large (413), another content type (415, 2003), a rate limit (429, with `Retry-After`) and an outage (503) keep their status lines, in this shape too.';

const reportExample = () => {
  const utrDate = '24-11-2026';
  return {
    merchantIdentifier: M,
    utr_date: utrDate,
    checksum: hmacSha256Hex(EXAMPLE_MERCHANT.secretKey, settlementReportChecksumString(M, utrDate)),
  };
};

/** The example split body, exactly as the `zaakchecksum` header is computed over it. */
export const EXAMPLE_SPLIT_BODY = {
  orderId: 'order-1001',
  orderAmount: '10000',
  masterMerchantIdentifier: { zaakMerchantIdentifier: M, merchantAmount: '4000' },
  subMerchantIdentifiers: [{ zaakMerchantIdentifier: 'seller0000000000000000000000001', merchantAmount: '6000' }],
  isCustomIdentifier: false,
};

/** The operator's settlement settings (Zaakpay's Settlement and Split Payment APIs are operations: their entries below). */
export function settlementPaths(): Record<string, object> {
  return {
    ...settlementAccountPaths(),
  };
}

/** Zaakpay's Settlement API's entry in the API reference (its operation: settlement-report.ts). */
export const settlementReportReference: OperationReference = {
  summary: "Zaakpay's Settlement API: the lines settled on one UTR date",
  description:
    "JSON `{merchantIdentifier, utr_date, checksum}`: utr_date is the settlement (UTR) date as dd-MM-yyyy; checksum is HMAC-SHA256 (lowercase hex) of the text `merchantIdentifier,utr_date` (a comma, no quotes, no spaces) under the merchant's secret key (during a rotation's overlap, the old key too). Answers every line of that date: sales, refunds, chargebacks and their reversals, every `amount` and `settlement_amount` positive (as Zaakpay's sample) and `settlement_action` giving the direction (REFUND and CHARGEBACK are deducted, SALE and CHARGEBACK_REVERSAL added), with the fee and GST per line; `transaction_utr` is empty until the settlement is paid. A date without a settlement: `report: []` with 100. At most 2 calls an hour per merchant (only calls that pass every check count); a third gets HTTP 429 (a rate limit keeps its status line), 2029 and `Retry-After` (seconds). Refusals carry `report: []`." +
    codeTable(SettlementReportCodes) +
    CODED_200,
  request: settlementReportRequestSchema,
  example: reportExample(),
  responses: {
    200: { description: 'the report (possibly empty), or a refusal with its code', schema: settlementReportResponseSchema },
  },
  errors: [413, 415, 429, 503],
  errorEnvelope: settlementReportResponseSchema,
};

/** Zaakpay's Split Payment API's entry in the API reference (its operation: split-payments.ts). */
export const splitReference: OperationReference = {
  summary: "Zaakpay's Split Payment API: share a paid order among the master merchant and its sub-merchants",
  description:
    "Header `zaakchecksum`: HMAC-SHA256 (lowercase hex) of the exact body bytes under the master merchant's secret key. The master is the merchant `masterMerchantIdentifier` names, and `orderId` is its order. Each merchant is named by `zaakMerchantIdentifier` or `merchantIdentifier` (both name the gateway's merchantIdentifier; surrounding spaces are ignored); with `isCustomIdentifier: true` each sub-merchant is named instead by the master's own name for it, given when the operator linked it (`customIdentifier`), and a name no linked sub-merchant carries is 2076 (the master is always named by its merchantIdentifier). Amounts are integer paise (digits as text, or JSON integers): each sub-merchant's share above 0, the master's may be 0, and together exactly `orderAmount`, which must be the order's amount. Each sub-merchant must be linked to this master by an operator (PUT /ops/v1/merchants/{merchantIdentifier}/master). The order must be paid (Success) and not yet taken by a settlement; a split is set once. Each share settles to its own merchant; the fee and GST on the whole order are deducted from the master's share." +
    codeTable(SplitCodes) +
    CODED_200,
  request: splitRequestDocSchema,
  example: EXAMPLE_SPLIT_BODY,
  responses: {
    200: { description: 'recorded (SUCCESS, 100) or refused with a code (FAILURE)', schema: splitResponseSchema },
  },
  errors: [413, 415, 429, 503],
  errorEnvelope: splitResponseSchema,
};

/** A merchant's settlement bank account and master settings (operator). */
function settlementAccountPaths(): Record<string, object> {
  return {
    ...settlementAccountSetPaths(),
    ...settlementAccountConfirmPaths(),
  };
}

/** A merchant's settlement bank account: set, read, and confirmed. */
function settlementAccountSetPaths(): Record<string, object> {
  return {
    '/ops/v1/merchants/{merchantIdentifier}/settlement-account': {
      put: {
        ...operation({
          summary: "Propose a merchant's settlement bank account (operator; a second operator confirms)",
          description:
            "Where the merchant's settlements are to be paid. IFSC: 4 capital letters, 0, 6 capital letters or digits; account number 9 to 18 digits; the holder's name as the bank knows it. An operator's change is only a proposal (202, `pendingChange`, replacing any earlier one): it applies when a different operator confirms it (`POST .../settlement-account/confirm`). A changed account (not a first one) cools: payouts to it wait SETTLEMENT_ACCOUNT_COOLING_HOURS unless an operator confirms it early. The account number is sealed at rest (AES-256-GCM, bound to the merchant) and answered masked. The dashboard's owners change the same through Settlements > Bank account, with their password. Unknown merchant: 404, code 2042.",
          security: [{ operatorToken: [] }],
          request: settlementAccountSchema,
          example: { ifsc: 'HDFC0001234', accountNumber: '50100123456789', holderName: 'Meera Stores' },
          responses: {
            202: { description: 'proposed: the account and the pending change, masked', schema: settlementAccountResponseSchema },
          },
          errors: [400, 401, 404, 413, 415, 503],
          errorEnvelope: successError,
        }),
        parameters: [merchantIdentifierParam],
      },
      get: {
        ...operation({
          summary: "A merchant's settlement bank account and any proposed change, masked (operator)",
          description:
            'null when none is set; `changedBy` and `coolingUntil` tell the last change. Unknown merchant: 404, code 2042.',
          security: [{ operatorToken: [] }],
          in: 'query',
          request: z.object({}),
          example: {},
          responses: { 200: { description: 'the account, masked', schema: settlementAccountResponseSchema } },
          errors: [401, 404, 503],
          errorEnvelope: successError,
        }),
        parameters: [merchantIdentifierParam],
      },
    },
    '/ops/v1/merchants/{merchantIdentifier}/settlement-account/confirm': {
      post: {
        ...operation({
          summary: "Confirm another operator's proposed settlement bank account (operator)",
          description:
            'Names the pending change it confirms, as the GET shows it (`pendingChange.proposedAt` and `.accountLast4`), and applies it: it becomes the account (a replaced account cools, see PUT). Refused with 409 (2068), changing nothing, when the pending change is not the one named (a later PUT replaced it) or the operator who proposed it confirms; no pending change, or one proposed more than 24 hours ago: 404 (2067). Recorded in the audit trail (`settlement_account.changed`, naming both operators).',
          security: [{ operatorToken: [] }],
          request: confirmProposalSchema,
          example: { proposedAt: '2026-04-01T10:00:00.000Z', accountLast4: '6789' },
          responses: { 200: { description: 'the account, masked', schema: settlementAccountResponseSchema } },
          errors: [400, 401, 404, 409, 413, 415, 503],
          errorEnvelope: successError,
        }),
        parameters: [merchantIdentifierParam],
      },
    },
  };
}

/** An account change confirmed early, and the merchant's master settings. */
function settlementAccountConfirmPaths(): Record<string, object> {
  return {
    '/ops/v1/merchants/{merchantIdentifier}/settlement-account/confirm-early': {
      post: {
        ...operation({
          summary: "End a changed settlement account's cooling after checking it with the merchant (operator)",
          description:
            'Payouts to the account (named by its last four digits) no longer wait, and the settlements waiting for it go on at once. 409 (2068) when no account ending so is cooling, or when the operator asking proposed that change. Recorded in the audit trail (`settlement_account.confirmed`).',
          security: [{ operatorToken: [] }],
          request: confirmEarlySchema,
          example: { accountLast4: '6789' },
          responses: { 200: { description: 'the account, masked', schema: settlementAccountResponseSchema } },
          errors: [400, 401, 404, 409, 413, 415, 503],
          errorEnvelope: successError,
        }),
        parameters: [merchantIdentifierParam],
      },
    },
    '/ops/v1/merchants/{merchantIdentifier}/master': {
      put: {
        ...operation({
          summary: 'Link a sub-merchant to its master merchant for split payments (operator)',
          description:
            "The master's split API may then give this merchant shares of its orders. `customIdentifier` is the master's own name for it, which the master's split requests may send with `isCustomIdentifier: true` (one sub-merchant per name and master: another one's name is 409, 2062); a link without it has none. `null` removes the link and its name (splits already recorded stay). Refused with 409 (2061) when the master is the merchant itself or is itself a sub-merchant (splits do not chain). Unknown merchant or master: 404, code 2042.",
          security: [{ operatorToken: [] }],
          request: masterLinkDocSchema,
          example: { masterMerchantIdentifier: null },
          responses: { 200: { description: 'the link as it now stands', schema: masterLinkResponseSchema } },
          errors: [400, 401, 404, 409, 413, 415, 503],
          errorEnvelope: successError,
        }),
        parameters: [merchantIdentifierParam],
      },
    },
  };
}
