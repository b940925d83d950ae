import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError, ApiErrors } from '../../domain/api-errors';
import { CheckTxnCodes, toCheckTxnRecord } from '../../domain/check-txn';
import { quotedValues, signedLegacyFields } from '../../domain/checkout-checksum';
import { ambiguousField, matchKitForm } from '../../domain/legacy-form-reading';
import { legacyXml, type LegacyXmlAnswer } from '../../domain/legacy-xml';
import { RefundResponse, refundRequestProblem, type UpdateDesired } from '../../domain/refund';
import type { Merchant } from '../../domain/merchant';
import { findOrder } from '../../usecases/read-order';
import { startRefund, startRefundDeps } from '../../usecases/start-refund';
import type { ApiDeps } from '../deps';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { readRawBody, validate } from '../middleware/body';
import { refusalStatus } from '../envelope';
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
 * Zaakpay's legacy XML APIs (design.md, Legacy XML APIs), used by its older kits (PHP, JSP,
 * Magento, the 1.1 PHP kit's refund page): flat form fields signed `'v1''v2'...` in the order
 * posted. `/checktransaction` is the one status read (`/checkTxn`'s record, so the same codes);
 * `/updatetransaction` the one refund use case (`/updateTxn`'s rules and codes). Every answer,
 * refusals included, is the XML document, signed once the request is authenticated.
 */
export function legacyXmlRoutes(deps: ApiDeps): Router {
  const router = new Router();

  router.post('/checktransaction', (ctx) =>
    answerXml(
      ctx,
      deps,
      'checktransaction',
      CheckTxnCodes.checksumBlank,
      CheckTxnCodes.checksumMismatch,
      async (fields, merchant) => {
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
      },
    ),
  );

  router.post('/updatetransaction', (ctx) =>
    answerXml(
      ctx,
      deps,
      'updatetransaction',
      RefundResponse.checksumBlank,
      RefundResponse.checksumMismatch,
      async (fields, merchant, signedText) => {
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
          updateReason: form.updateReason as string,
          // Without a merchantRefId the text the checksum verified over is the key: a form renamed,
          // reordered or padded with stripped characters around the same signed values is the same refund.
          ...(form.merchantRefId !== undefined
            ? { merchantRefId: form.merchantRefId }
            : { signedRequest: { entry: 'updatetransaction' as const, signedText } }),
        });
        return refused(result.response);
      },
    ),
  );
  return router;
}

/** What a form would do at the endpoint, for the ambiguity check: null when it would be refused. */
const OUTCOMES: Record<XmlEndpoint, (f: Record<string, string>) => string | null> = {
  checktransaction: (f) => {
    const form = legacyCheckFormSchema.safeParse(f);
    return form.success ? form.data.orderId : null;
  },
  updatetransaction: (f) => {
    const form = legacyUpdateFormSchema.safeParse(f);
    if (!form.success || refundRequestProblem(form.data.updateDesired, form.data.updateReason)) return null;
    return JSON.stringify([form.data.orderId, form.data.updateDesired, form.data.amount ?? null]);
  },
};
type XmlEndpoint = 'checktransaction' | 'updatetransaction';

const unreadable = (field: string, why: string) =>
  new XmlRefusal(200, { code: '109', description: `Validation failed: ${field}: ${why}` });

/**
 * Reads the form and authenticates it: the merchant, then the legacy checksum over the fields a
 * kit signs (raw, or PHP-sanitized), then the names, which must be one kit's sequence for this
 * endpoint with one reading of its values (legacy-form-reading.ts), else 109 naming the field.
 * `use` gets the values as signed and decides the answer; refusals are answered in the same XML.
 */
async function answerXml(
  ctx: Context,
  deps: ApiDeps,
  endpoint: XmlEndpoint,
  blank: Code,
  mismatch: Code,
  use: (fields: Record<string, string>, merchant: Merchant, signedText: string) => Promise<LegacyXmlAnswer>,
): Promise<void> {
  let orderid = '';
  let signer: Merchant | null = null;
  try {
    const pairs = parseFormPairs(await readRawBody(ctx, 'application/x-www-form-urlencoded', deps.config.MAX_BODY_BYTES));
    const posted = Object.fromEntries(pairs);
    orderid = posted.orderId ?? '';
    const named = posted.merchantIdentifier;
    if (!named) throw new XmlRefusal(400, CheckTxnCodes.merchantIdentifierMissing);
    const merchant = named.length <= 64 ? await deps.merchants.findById(named) : null;
    if (!merchant) throw new XmlRefusal(401, CheckTxnCodes.merchantIdentifierInvalid);
    if (!posted.checksum) throw new XmlRefusal(401, blank);
    const match = matchKitForm(endpoint, pairs);
    const verified = await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) =>
      signedLegacyFields(keys, 'kit' in match ? match.signed : pairs, posted.checksum),
    );
    if (!verified) throw new XmlRefusal(401, mismatch);
    if ('quoted' in verified)
      throw unreadable(verified.quoted, 'holds a single quote, so the signed text splits more than one way');
    if ('problem' in match) throw unreadable(match.problem.field, match.problem.why);
    const signed = { kit: match.kit, signed: verified.signed };
    const outcome = (f: Record<string, string>) =>
      f.merchantIdentifier === merchant.merchantIdentifier ? OUTCOMES[endpoint](f) : null;
    const ambiguous = ambiguousField(endpoint, signed, outcome);
    if (ambiguous) throw unreadable(ambiguous, "these values read as another request under another kit's field names");
    // Only a form read as one kit's, as the merchant signed it, gets signed answers and counts against
    // the merchant's budget. A refusal before this point echoes what the poster chose (a field's name,
    // a raw orderId): signed, its text would verify as a forged "100" return at the merchant's shop.
    signer = merchant;
    await deps.rateLimit.consume(ctx, endpoint === 'checktransaction' ? 'checkTxn' : 'refunds', merchant.merchantIdentifier);
    const fields: Record<string, string> = { ...Object.fromEntries(signed.signed), checksum: posted.checksum };
    orderid = fields.orderId ?? '';
    if (!fields.orderId) throw new XmlRefusal(400, CheckTxnCodes.orderIdMissing);
    sendXml(ctx, 200, legacyXml(await use(fields, merchant, quotedValues(signed.signed)), merchant.secretKey));
  } catch (e) {
    const refusal = asRefusal(e);
    if (!refusal) throw e;
    const answer = { orderid, responsecode: refusal.answer.code, description: refusal.answer.description };
    sendXml(ctx, refusalStatus('checkTxn', refusal.http), legacyXml(answer, signer?.secretKey ?? null));
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
