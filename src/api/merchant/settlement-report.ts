import Router from '@koa/router';
import type { Context } from 'koa';
import { checksumMatches } from '../../domain/checksum';
import {
  parseUtrDate,
  settlementReportChecksumString,
  SettlementReportCodes,
  toReportLine,
  type SettlementReportCode,
} from '../../domain/settlement-report';
import { settlementReads } from '../../usecases/read-settlements';
import type { ApiDeps } from '../deps';
import { authenticationFailed } from '../middleware/abuse-limits';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { settlementReportFailure } from '../envelope';
import { parseJsonBody, readRawBody } from '../middleware/body';
import { sharedLimiter } from '../middleware/rate-limit';

export const SETTLEMENT_REPORT_PATH = '/api/v2/getSettlementReport';

/**
 * Zaakpay's Settlement API: `{merchantIdentifier, utr_date (dd-MM-yyyy), checksum}` with checksum =
 * HMAC-SHA256 (hex) of `merchantIdentifier,utr_date` under the merchant's secret key; answers the
 * lines settled on that date. Refusals (101, 180, 109: HTTP 200; 2029: 429) carry an empty report. Only a call
 * that passed every check counts against the two calls an hour, counted in the store itself so
 * replicas together never let a third through.
 */
export function settlementReportRoutes(deps: ApiDeps): Router {
  const router = new Router();
  const reads = settlementReads(deps.store.db);
  // Zaakpay's note: two calls an hour per merchant (SETTLEMENT_REPORT_CALLS_PER_HOUR; 0: no limit).
  const callsPerHour = deps.config.SETTLEMENT_REPORT_CALLS_PER_HOUR;
  const limiter =
    callsPerHour > 0
      ? sharedLimiter(deps.store.client, deps.config.MONGODB_DB, {
          points: callsPerHour,
          durationSeconds: 3600,
          keyPrefix: 'settlement-report',
        })
      : null;

  router.post(SETTLEMENT_REPORT_PATH, async (ctx: Context) => {
    const refuse = (code: SettlementReportCode) => {
      const c = SettlementReportCodes[code];
      if (code === 'merchantUnknown' || code === 'checksumMismatch') authenticationFailed(ctx);
      ctx.status = c.http;
      ctx.body = settlementReportFailure(c.code, c.description);
    };
    const body = parseJsonBody(await readRawBody(ctx, 'application/json', deps.config.MAX_BODY_BYTES));
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const { merchantIdentifier, utr_date: utrDate, checksum } = fields;
    const merchant =
      typeof merchantIdentifier === 'string' && /^[A-Za-z0-9]{1,64}$/.test(merchantIdentifier)
        ? await deps.merchants.findById(merchantIdentifier)
        : null;
    if (!merchant) return refuse('merchantUnknown');
    if (typeof utrDate !== 'string') return refuse('dateInvalid');
    const signed = settlementReportChecksumString(merchant.merchantIdentifier, utrDate);
    if (
      typeof checksum !== 'string' ||
      !(await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) => checksumMatches(keys, signed, checksum)))
    )
      return refuse('checksumMismatch');
    const settlementDate = parseUtrDate(utrDate);
    if (!settlementDate) return refuse('dateInvalid');
    const refusedForMs = limiter ? await limiter.take(merchant.merchantIdentifier) : 0;
    if (refusedForMs > 0) {
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(refusedForMs / 1000))));
      return refuse('limitExhausted');
    }
    const lines = await reads.linesOfDate(merchant.merchantIdentifier, settlementDate);
    const utrs = await reads.utrsOf(merchant.merchantIdentifier, [...new Set(lines.map((l) => l.settlementId))]);
    const ok = SettlementReportCodes.ok;
    ctx.body = {
      report: lines.map((l) => toReportLine(l, utrs.get(l.settlementId) ?? null)),
      responsecode: ok.code,
      responsedescription: ok.description,
    };
  });
  return router;
}
