import { z } from 'zod';
import { checksumMatches } from '../../domain/checksum';
import type { Merchant } from '../../domain/merchant';
import {
  parseUtrDate,
  settlementReportChecksumString,
  SettlementReportCodes,
  toReportLine,
  type SettlementReportCode,
} from '../../domain/settlement-report';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { defineOperation, Refusal, type AuthScheme, type OperationLimit } from '../operation';
import { settlementReportReference } from './settlements-openapi';

/** Zaakpay's answer code as a refusal; an unknown merchant or a wrong checksum counts as a failed authentication. */
function coded(code: SettlementReportCode): Refusal {
  const c = SettlementReportCodes[code];
  return new Refusal(c.code, c.description, c.http, code === 'merchantUnknown' || code === 'checksumMismatch');
}

/**
 * Body field `checksum` = HMAC-SHA256 (hex) of `merchantIdentifier,utr_date` under the merchant's
 * keys in force. A utr_date that is not text is refused before the checksum, which covers it.
 */
const reportChecksum: AuthScheme<Merchant> = {
  bodySignature: 'settlementReportChecksum',
  from: 'body',
  async authenticate(_ctx, deps, { parsed }) {
    const fields =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    const { merchantIdentifier, utr_date: utrDate, checksum } = fields;
    const merchant =
      typeof merchantIdentifier === 'string' && /^[A-Za-z0-9]{1,64}$/.test(merchantIdentifier)
        ? await deps.useCases.shared.findMerchant(merchantIdentifier)
        : null;
    if (!merchant) return coded('merchantUnknown');
    if (typeof utrDate !== 'string') return coded('dateInvalid');
    const signed = settlementReportChecksumString(merchant.merchantIdentifier, utrDate);
    if (
      typeof checksum !== 'string' ||
      !(await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
        checksumMatches(keys, signed, checksum),
      ))
    )
      return coded('checksumMismatch');
    return merchant;
  },
  limitKey: (merchant) => merchant.merchantIdentifier,
};

/**
 * Zaakpay's note: two calls an hour per merchant (SETTLEMENT_REPORT_CALLS_PER_HOUR; 0: no limit).
 * Only a call that passed every check counts, counted in the store itself so replicas together never
 * let a third through.
 */
const callsPerHour: OperationLimit = {
  counted: 'validated',
  build(deps) {
    const perHour = deps.config.limits.settlementReportCallsPerHour;
    if (perHour === 0) return async () => null;
    const limiter = deps.rateLimit.limiter({
      points: perHour,
      durationSeconds: 3600,
      keyPrefix: 'settlement-report',
    });
    return async (ctx, merchantIdentifier) => {
      const refusedForMs = await limiter.take(merchantIdentifier);
      if (refusedForMs === 0) return null;
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(refusedForMs / 1000))));
      return coded('limitExhausted');
    };
  },
};

/** The date the report is of, as the store keys it (yyyy-MM-dd). */
const reportRequestSchema = z.object({ utr_date: z.string().transform(parseUtrDate).pipe(z.string()) });

/**
 * Zaakpay's Settlement API: `{merchantIdentifier, utr_date (dd-MM-yyyy), checksum}`; answers the
 * lines settled on that date. Refusals (101, 180, 109: HTTP 200; 2029: 429) carry an empty report.
 */
export const settlementReportOperation = defineOperation({
  method: 'post',
  path: '/api/v2/getSettlementReport',
  envelope: 'settlementReport',
  auth: reportChecksum,
  body: { contentType: 'application/json', schema: reportRequestSchema, invalid: () => coded('dateInvalid') },
  limit: callsPerHour,
  reference: settlementReportReference,
  async handle({ caller: merchant, body }, deps) {
    const settlements = deps.useCases.merchant;
    const lines = await settlements.settlementLinesOfDate(merchant.merchantIdentifier, body.utr_date);
    const utrs = await settlements.settlementUtrs(merchant.merchantIdentifier, [...new Set(lines.map((l) => l.settlementId))]);
    const ok = SettlementReportCodes.ok;
    return {
      report: lines.map((l) => toReportLine(l, utrs.get(l.settlementId) ?? null)),
      responsecode: ok.code,
      responsedescription: ok.description,
    };
  },
});
