import { hmacSha256Hex } from '../../domain/checksum';
import { SettlementReportCodes, settlementReportChecksumString } from '../../domain/settlement-report';
import { SplitCodes } from '../../domain/split';
import {
  settlementReportRequestSchema,
  settlementReportResponseSchema,
  splitRequestDocSchema,
  splitResponseSchema,
} from '../schemas/settlement-merchant';
import { EXAMPLE_MERCHANT } from '../reference/examples';
import type { OperationReference } from '../operation';

const M = EXAMPLE_MERCHANT.merchantIdentifier;
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
