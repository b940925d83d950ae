import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError, ApiErrors } from '../../domain/api-errors';
import { CheckTxnCodes, toCheckTxnRecord } from '../../domain/check-txn';
import { checksumMatchesAny, legacyChecksumTexts } from '../../domain/checkout-checksum';
import { legacyXml, type LegacyXmlAnswer } from '../../domain/legacy-xml';
import { RefundResponse, refundRequestProblem, type UpdateDesired } from '../../domain/refund';
import type { Merchant } from '../../domain/merchant';
import { findOrder } from '../../usecases/read-order';
import { startRefund, startRefundDeps } from '../../usecases/start-refund';
import type { ApiDeps } from '../deps';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { readRawBody, validate } from '../middleware/body';
import { parseFormPairs } from '../middleware/form-body';
import { legacyCheckFormSchema, legacyUpdateFormSchema } from '../schemas/legacy-xml';

type Code = { code: string; description: string };

/** A refusal answered in the XML envelope, with its HTTP status. */
class XmlRefusal extends Error {
  constructor(
    readonly http: number,
    readonly answer: Code,
  ) {
    super(answer.description);
  }
}

/**
 * Zaakpay's legacy XML APIs (DECISIONS.md, Legacy XML APIs), used by its older kits (PHP, JSP,
 * Magento, the 1.1 PHP kit's refund page): flat form fields signed `'v1''v2'...` in the order
 * posted. `/checktransaction` is the one status read (`/checkTxn`'s record, so the same codes);
 * `/updatetransaction` the one refund use case (`/updateTxn`'s rules and codes). Every answer,
 * refusals included, is the XML document, signed once the request is authenticated.
 */
export function legacyXmlRoutes(deps: ApiDeps): Router {
  const router = new Router();

  router.post('/checktransaction', (ctx) =>
    answerXml(ctx, deps, 'checkTxn', CheckTxnCodes.checksumBlank, CheckTxnCodes.checksumMismatch, async (fields, merchant) => {
      const form = validate(legacyCheckFormSchema, fields);
      const found = await findOrder(deps, { merchantIdentifier: merchant.merchantIdentifier, orderId: form.orderId });
      if (!found)
        return {
          orderid: form.orderId,
          responsecode: CheckTxnCodes.orderNotFound.code,
          description: CheckTxnCodes.orderNotFound.description,
        };
      const order = toCheckTxnRecord(found.record, found.transaction);
      return {
        orderid: form.orderId,
        responsecode: order.responseCode,
        description: order.responseDescription,
        txn: {
          txnid: order.orderDetail.txnId,
          amount: order.orderDetail.amount,
          txnstatus: order.txnStatus,
          txndate: order.txnDate,
          paymentmode: order.paymentInstrument.paymentMode,
        },
      };
    }),
  );

  router.post('/updatetransaction', (ctx) =>
    answerXml(ctx, deps, 'refunds', RefundResponse.checksumBlank, RefundResponse.checksumMismatch, async (fields, merchant) => {
      const form = validate(legacyUpdateFormSchema, fields);
      const refused = (key: keyof typeof RefundResponse) => ({
        orderid: form.orderId,
        responsecode: RefundResponse[key].code,
        description: RefundResponse[key].description,
      });
      const problem = refundRequestProblem(form.updateDesired, form.updateReason);
      if (problem) return refused(problem);
      const updateDesired = form.updateDesired as UpdateDesired;
      if (updateDesired === '22' && form.amount === undefined)
        throw new ApiError('validationFailed', 'amount is required for a partial refund (22)');
      const result = await startRefund(startRefundDeps(deps), {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: form.orderId,
        updateDesired,
        amountPaise: form.amount === undefined ? undefined : Number(form.amount),
        merchantRefId: form.merchantRefId,
        updateReason: form.updateReason as string,
      });
      return refused(result.response);
    }),
  );
  return router;
}

/**
 * Reads the form, authenticates it (merchant, then the legacy checksum over the fields in the order
 * posted, raw or PHP-sanitized), and answers what `use` decides, or the refusal, as XML.
 */
async function answerXml(
  ctx: Context,
  deps: ApiDeps,
  family: 'checkTxn' | 'refunds',
  blank: Code,
  mismatch: Code,
  use: (fields: Record<string, string>, merchant: Merchant) => Promise<LegacyXmlAnswer>,
): Promise<void> {
  let orderid = '';
  let signer: Merchant | null = null;
  try {
    const pairs = parseFormPairs(await readRawBody(ctx, 'application/x-www-form-urlencoded', deps.config.MAX_BODY_BYTES));
    const fields = Object.fromEntries(pairs);
    orderid = fields.orderId ?? '';
    const named = fields.merchantIdentifier;
    if (!named) throw new XmlRefusal(400, CheckTxnCodes.merchantIdentifierMissing);
    const merchant = named.length <= 64 ? await deps.merchants.findById(named) : null;
    if (!merchant) throw new XmlRefusal(401, CheckTxnCodes.merchantIdentifierInvalid);
    if (!fields.checksum) throw new XmlRefusal(401, blank);
    if (
      !(await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) =>
        checksumMatchesAny(keys, legacyChecksumTexts(pairs), fields.checksum!),
      ))
    )
      throw new XmlRefusal(401, mismatch);
    signer = merchant;
    await deps.rateLimit.consume(ctx, family, merchant.merchantIdentifier);
    if (!fields.orderId) throw new XmlRefusal(400, CheckTxnCodes.orderIdMissing);
    sendXml(ctx, 200, legacyXml(await use(fields, merchant), merchant.secretKey));
  } catch (e) {
    const refusal = asRefusal(e);
    if (!refusal) throw e;
    const answer = { orderid, responsecode: refusal.answer.code, description: refusal.answer.description };
    sendXml(ctx, refusal.http, legacyXml(answer, signer?.secretKey ?? null));
  }
}

function asRefusal(e: unknown): XmlRefusal | null {
  if (e instanceof XmlRefusal) return e;
  // Anything the API refuses (a malformed form, a field not valid, the rate limit, the store down)
  // keeps its status and code, in the XML a kit can read.
  if (e instanceof ApiError && e.kind !== 'internal') {
    const c = ApiErrors[e.kind];
    return new XmlRefusal(c.http, { code: String(c.code), description: e.message });
  }
  return null;
}

function sendXml(ctx: Context, status: number, xml: string) {
  ctx.status = status;
  ctx.type = 'text/xml; charset=utf-8';
  ctx.body = xml;
}
