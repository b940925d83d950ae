import type { z } from 'zod';
import { ApiError, ApiErrors } from '../../domain/api-errors';
import { CheckTxnCodes, toCheckTxnRecord } from '../../domain/check-txn';
import { quotedValues, signedLegacyFields, type FormPairs } from '../../domain/checkout-checksum';
import { ambiguousField, matchKitForm } from '../../domain/legacy-form-reading';
import { legacyXml, type LegacyXmlAnswer } from '../../domain/legacy-xml';
import type { Merchant } from '../../domain/merchant';
import { RefundResponse, refundRequestProblem, type UpdateDesired } from '../../domain/refund';
import { refusalStatus } from '../envelope';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { describeIssues, type Issue } from '../middleware/body';
import { defineOperation, HttpAnswer, Refusal, Verified, type AuthScheme, type RefusalContext } from '../operation';
import { legacyCheckFormSchema, legacyUpdateFormSchema } from '../schemas/legacy-xml';
import { checkTransactionReference, updateTransactionReference } from './legacy-xml-openapi';

/**
 * Zaakpay's legacy XML APIs (design.md, Legacy XML APIs), used by its older kits (PHP, JSP,
 * Magento, the 1.1 PHP kit's refund page): flat form fields signed `'v1''v2'...` in the order
 * posted. `/checktransaction` is the one status read (`/checkTxn`'s record, so the same codes);
 * `/updatetransaction` the one refund use case (`/updateTxn`'s rules and codes). Every answer,
 * refusals included, is the XML document, signed once the request is authenticated.
 */

type Code = { code: string; description: string };
type XmlEndpoint = 'checktransaction' | 'updatetransaction';
/** The form as its checksum covered it: the fields a kit signs, in its order, and the checksum. */
type SignedForm = Record<string, string>;

const endpointOf = { check: 'checktransaction', update: 'updatetransaction' } as const;

const coded = (orderid: string, c: Code) => ({ orderid, responsecode: c.code, description: c.description });

/** `'v1''v2'...` of the values the checksum covered, in their order (kits' names are never array indices, so an object keeps it). */
const signedText = (form: SignedForm) => quotedValues(Object.entries(form).filter(([name]) => name !== 'checksum'));

const refused = (http: number, c: Code) => new Refusal(c.code, c.description, http);
/** An unknown merchant or a checksum that does not verify: counted as a failed authentication of the client's address. */
const unauthenticated = (c: Code) => new Refusal(c.code, c.description, 401, true);
const unreadable = (field: string, why: string) =>
  refused(200, { code: '109', description: `Validation failed: ${field}: ${why}` });

/**
 * The merchant, then the legacy checksum over the fields a kit signs (raw, or PHP-sanitized), then
 * the names, which must be one kit's sequence for this endpoint with one reading of its values
 * (legacy-form-reading.ts), else 109 naming the field. Only a form read as one kit's, as the
 * merchant signed it, is authenticated: a refusal before echoes what the poster chose (a field's
 * name, a raw orderId), so it is not signed (signed, its text would verify as a forged "100"
 * return at the merchant's shop).
 */
function legacyFormChecksum(endpoint: XmlEndpoint, blank: Code, mismatch: Code): AuthScheme<Merchant> {
  return {
    bodySignature: 'legacyChecksum',
    from: 'signedReading',
    async authenticate(_ctx, deps, { parsed }) {
      const pairs = parsed as FormPairs;
      const posted = Object.fromEntries(pairs);
      const named = posted.merchantIdentifier;
      if (!named) return refused(400, CheckTxnCodes.merchantIdentifierMissing);
      const merchant = named.length <= 64 ? await deps.useCases.shared.findMerchant(named) : null;
      if (!merchant) return unauthenticated(CheckTxnCodes.merchantIdentifierInvalid);
      if (!posted.checksum) return unauthenticated(blank);
      const match = matchKitForm(endpoint, pairs);
      const verified = await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
        signedLegacyFields(keys, 'kit' in match ? match.signed : pairs, posted.checksum),
      );
      if (!verified) return unauthenticated(mismatch);
      if ('quoted' in verified)
        return unreadable(verified.quoted, 'holds a single quote, so the signed text splits more than one way');
      if ('problem' in match) return unreadable(match.problem.field, match.problem.why);
      const signed = { kit: match.kit, signed: verified.signed };
      const outcome = (f: Record<string, string>) =>
        f.merchantIdentifier === merchant.merchantIdentifier ? OUTCOMES[endpoint](f) : null;
      const ambiguous = ambiguousField(endpoint, signed, outcome);
      if (ambiguous) return unreadable(ambiguous, "these values read as another request under another kit's field names");
      const form: SignedForm = { ...Object.fromEntries(signed.signed), checksum: posted.checksum };
      return new Verified(merchant, form);
    },
    limitKey: (merchant) => merchant.merchantIdentifier,
  };
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

const xml = (status: number, answer: LegacyXmlAnswer, signer: Merchant | null) =>
  new HttpAnswer(legacyXml(answer, signer?.secretKey ?? null), { status, type: 'text/xml; charset=utf-8' });

/** A refusal in the same XML, with the orderId as signed (or as posted), signed once the caller is authenticated. */
function xmlRefusal(refusal: Refusal, parsed: unknown, seen: RefusalContext): HttpAnswer {
  const posted = parsed === undefined ? {} : Object.fromEntries(parsed as FormPairs);
  const orderid = (seen.content as SignedForm | undefined)?.orderId ?? posted.orderId ?? '';
  const answer = { orderid, responsecode: refusal.code, description: refusal.text };
  return xml(refusalStatus('checkTxn', refusal.http), answer, (seen.caller as Merchant | undefined) ?? null);
}

/**
 * The parts both share: anything the API refuses (a malformed form, a field not valid, the rate
 * limit, the store down) keeps its status and code, in the XML a kit can read; a signed form
 * without its orderId is 129.
 */
function legacyXmlParts<B>(endpoint: XmlEndpoint, schema: z.ZodType<B>) {
  return {
    method: 'post' as const,
    path: `/${endpoint}`,
    // What the refusals answered before the operation takes the request (a wrong method, the
    // failed-sign-in lockout, a request the HTTP server refuses) and its faults are written in.
    envelope: 'legacyXml' as const,
    body: {
      contentType: 'application/x-www-form-urlencoded' as const,
      fields: 'flat' as const,
      schema,
      invalid: (issues: readonly Issue[], _parsed: unknown, content: unknown) =>
        (content as SignedForm).orderId
          ? new ApiError('validationFailed', describeIssues(issues))
          : refused(400, CheckTxnCodes.orderIdMissing),
    },
    limit: endpoint === 'checktransaction' ? ('checkTxn' as const) : ('refunds' as const),
    refusalBody: xmlRefusal,
    caught: (e: ApiError) => {
      if (e.kind === 'internal') return null;
      return refused(ApiErrors[e.kind].http, { code: String(ApiErrors[e.kind].code), description: e.message });
    },
  };
}

/** POST /checktransaction: one order's status, as /checkTxn reads it. */
export const checkTransactionOperation = defineOperation({
  ...legacyXmlParts(endpointOf.check, legacyCheckFormSchema),
  auth: legacyFormChecksum(endpointOf.check, CheckTxnCodes.checksumBlank, CheckTxnCodes.checksumMismatch),
  reference: checkTransactionReference,
  async handle({ caller: merchant, body: form }, deps) {
    const found = await deps.useCases.merchant.findOrder({
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: form.orderId,
    });
    if (!found) return xml(200, coded(form.orderId, CheckTxnCodes.orderNotFound), merchant);
    const order = toCheckTxnRecord(found.record, found.transaction);
    const txn = {
      txnid: order.orderDetail.txnId,
      amount: order.orderDetail.amount,
      txnstatus: order.txnStatus,
      txndate: order.txnDate,
      paymentmode: order.paymentInstrument.paymentMode,
    };
    const answer = { orderid: form.orderId, responsecode: order.responseCode, description: order.responseDescription, txn };
    return xml(200, answer, merchant);
  },
});

/** POST /updatetransaction: a refund, by /updateTxn's rules and codes. */
export const updateTransactionOperation = defineOperation({
  ...legacyXmlParts(endpointOf.update, legacyUpdateFormSchema),
  auth: legacyFormChecksum(endpointOf.update, RefundResponse.checksumBlank, RefundResponse.checksumMismatch),
  reference: updateTransactionReference,
  async handle({ caller: merchant, body: form, signed }, deps) {
    const answer = (key: keyof typeof RefundResponse) => xml(200, coded(form.orderId, RefundResponse[key]), merchant);
    const problem = refundRequestProblem(form.updateDesired, form.updateReason);
    if (problem) return answer(problem);
    const updateDesired = form.updateDesired as UpdateDesired;
    if (updateDesired === '22' && form.amount === undefined)
      throw new ApiError('validationFailed', 'amount is required for a partial refund (22)');
    const result = await deps.useCases.merchant.startRefund({
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: form.orderId,
      updateDesired,
      amountPaise: form.amount === undefined ? undefined : Number(form.amount),
      updateReason: form.updateReason as string,
      // Without a merchantRefId the text the checksum verified over is the key: a form renamed,
      // reordered or padded with stripped characters around the same signed values is the same refund.
      ...(form.merchantRefId !== undefined
        ? { merchantRefId: form.merchantRefId }
        : { signedRequest: { entry: 'updatetransaction' as const, signedText: signedText(signed as SignedForm) } }),
    });
    return answer(result.response);
  },
});
