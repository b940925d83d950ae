import Router from '@koa/router';
import type { Context } from 'koa';
import { checksumMatches } from '../../domain/checksum';
import { namedMerchant, SplitCodes, splitRequestSchema, splitShares, type SplitCode } from '../../domain/split';
import { splitOrder, subMerchantNaming } from '../../usecases/split-order';
import type { ApiDeps } from '../deps';
import { authenticationFailed } from '../middleware/abuse-limits';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { splitFailure } from '../envelope';
import { parseJsonBody, readRawBody } from '../middleware/body';

export const SPLIT_PATH = '/api/v1/splitTxnByAmount';

/**
 * Zaakpay's Split Payment API: a JSON body signed by the header `zaakchecksum` = HMAC-SHA256 (hex)
 * of the exact body under the master merchant's secret key. The master is the merchant
 * `masterMerchantIdentifier` names; its order is split once among it and its linked
 * sub-merchants. Answers `{status, errorCode, errorDescription, orderId}`.
 */
export function splitPaymentRoutes(deps: ApiDeps): Router {
  const router = new Router();

  router.post(SPLIT_PATH, async (ctx: Context) => {
    let orderId: string | null = null;
    // Every answer is HTTP 200 with its code, as Zaakpay answers; failed authentications still count.
    const answer = (code: SplitCode, detail?: string) => {
      const c = SplitCodes[code];
      if (code === 'merchantUnknown' || code === 'checksumMismatch') authenticationFailed(ctx);
      ctx.body =
        code === 'recorded'
          ? { status: 'SUCCESS', errorCode: c.code, errorDescription: c.description, orderId }
          : splitFailure(c.code, detail ? `${c.description}: ${detail}` : c.description, orderId);
    };
    const raw = await readRawBody(ctx, 'application/json', deps.config.MAX_BODY_BYTES);
    const body = parseJsonBody(raw);
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    if (typeof fields.orderId === 'string') orderId = fields.orderId;
    const masterEntry = fields.masterMerchantIdentifier;
    const masterName = typeof masterEntry === 'object' && masterEntry !== null ? namedMerchant(masterEntry) : null;
    const master = masterName ? await deps.merchants.findById(masterName) : null;
    if (!master) return answer('merchantUnknown');
    const presented = ctx.get('zaakchecksum');
    if (!(await verifiedWithKeysInForce(deps.merchants, master, deps.now(), (keys) => checksumMatches(keys, raw, presented))))
      return answer('checksumMismatch');
    await deps.rateLimit.consume(ctx, 'split', master.merchantIdentifier);

    const parsed = splitRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return answer('requestInvalid', `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    const naming = await subMerchantNaming(deps.store.db, master.merchantIdentifier, parsed.data);
    if ('refused' in naming) return answer(naming.refused, naming.detail);
    const shares = splitShares(master.merchantIdentifier, parsed.data, naming.nameOf);
    if ('refused' in shares) return answer(shares.refused, shares.detail);
    const result = await splitOrder(
      { db: deps.store.db, transactions: deps.transactions, now: deps.now },
      master.merchantIdentifier,
      shares,
    );
    if (result === 'recorded')
      deps.logger.info({ merchantIdentifier: master.merchantIdentifier, orderId, shares: shares.shares.length }, 'order split');
    answer(result);
  });
  return router;
}
