import Router from '@koa/router';
import { CheckTxnCodes, toCheckTxnRecord, unknownOrderEntry, type CheckTxnCode } from '../../domain/check-txn';
import { checksumMatches } from '../../domain/checksum';
import { authenticationFailed } from '../middleware/abuse-limits';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { parseLooseObject } from '../../domain/loose-json';
import { findOrder } from '../../usecases/read-order';
import type { ApiDeps } from '../deps';
import { checkTxnFailure } from '../envelope';
import { readRawBody } from '../middleware/body';
import { parseFormBody } from '../middleware/form-body';
import { checkTxnDataSchema, type CheckTxnResponse } from '../schemas/check-txn';

/**
 * `POST /checkTxn?v=5`, Zaakpay's legacy status API (design.md, Legacy status): form fields
 * `data` and `checksum` (HMAC-SHA256 of the raw `data` string). `data` is read leniently (JSON, or
 * the unquoted form of some PHP kits) only to find the merchant; after the checksum over the raw
 * text matched it is validated. Answers the order as the status API's record with the card and the
 * further product descriptions, its code mirrored at the top level; an unknown order is 190, in orders[0] too. Every refusal is
 * HTTP 200 with its code.
 */
export function checkTxnRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/checkTxn', async (ctx) => {
    // Every refusal is HTTP 200 with the code, as Zaakpay answers; failed authentications still count.
    const refuse = (code: CheckTxnCode, merchantIdentifier: string | null = null, orders: object[] = []) => {
      const c = CheckTxnCodes[code];
      if (code === 'merchantIdentifierInvalid' || code === 'checksumBlank' || code === 'checksumMismatch')
        authenticationFailed(ctx);
      ctx.body = checkTxnFailure(c.code, c.description, merchantIdentifier, orders);
    };
    const form = parseFormBody(await readRawBody(ctx, 'application/x-www-form-urlencoded', deps.config.MAX_BODY_BYTES));
    const unread = form.data ? parseLooseObject(form.data) : null;
    const named = unread?.merchantIdentifier;
    if (typeof named !== 'string' || named === '') return refuse('merchantIdentifierMissing');
    const merchant = named.length <= 64 ? await deps.merchants.findById(named) : null;
    if (!merchant) return refuse('merchantIdentifierInvalid');
    if (!form.checksum) return refuse('checksumBlank', merchant.merchantIdentifier);
    if (
      !(await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) =>
        checksumMatches(keys, form.data, form.checksum),
      ))
    )
      return refuse('checksumMismatch', merchant.merchantIdentifier);
    await deps.rateLimit.consume(ctx, 'checkTxn', merchant.merchantIdentifier);

    const parsed = checkTxnDataSchema.safeParse(unread);
    if (!parsed.success) {
      const orderId = (unread!.orderDetail as { orderId?: unknown } | undefined)?.orderId;
      return refuse(orderId === undefined || orderId === '' ? 'orderIdMissing' : 'requestInvalid', merchant.merchantIdentifier);
    }
    // Looked up under the authenticated merchant: another merchant's order is simply not found.
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: parsed.data.orderDetail.orderId };
    const found = await findOrder(deps, order);
    if (!found) return refuse('orderNotFound', merchant.merchantIdentifier, [unknownOrderEntry(order.orderId)]);
    const { record, transaction } = found;
    const orderRecord = toCheckTxnRecord(record, transaction, parsed.data.refundDetail?.merchantRefId);
    const answer: CheckTxnResponse = {
      success: true,
      merchantIdentifier: merchant.merchantIdentifier,
      version: '5',
      orders: [orderRecord],
      responseCode: orderRecord.responseCode,
      responseDescription: orderRecord.responseDescription,
      txnId: record.orderDetail.txnId,
    };
    ctx.body = answer;
  });
  return router;
}
