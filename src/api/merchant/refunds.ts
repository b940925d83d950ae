import { ApiError } from '../../domain/api-errors';
import type { Merchant } from '../../domain/merchant';
import { RefundResponse, refundRequestProblem, type RefundResponseKey, type UpdateDesired } from '../../domain/refund';
import { checkSignedForm } from '../middleware/authenticate';
import { jsonObjectOrNull } from '../middleware/form-body';
import { defineOperation, Refusal, type AuthScheme, type SignedDataForm } from '../operation';
import { updateTxnDataSchema, updateTxnFormSchema } from '../schemas/refunds';
import { refundReference } from './refunds-openapi';

/** What every answer echoes of the request as sent: `data`'s merchant and order id, read leniently. */
interface Echo {
  merchantIdentifier: string | null;
  orderId: string | null;
}

function echoOf(form: SignedDataForm): Echo {
  const data = jsonObjectOrNull(form.data);
  const merchantIdentifier = typeof data?.merchantIdentifier === 'string' ? data.merchantIdentifier : null;
  const orderId = (data as { orderDetail?: { orderId?: unknown } } | null)?.orderDetail?.orderId;
  return { merchantIdentifier, orderId: typeof orderId === 'string' && orderId.length <= 64 ? orderId : null };
}

/** Zaakpay's Update/Refund answer, always HTTP 200, refusals included, as Zaakpay answers. */
function refundAnswer(echo: Echo, code: string, description: string, merchantRefId: string | null) {
  return {
    merchantIdentifier: echo.merchantIdentifier,
    orderDetail: echo.orderId === null ? null : { orderId: echo.orderId },
    responseCode: code,
    responseDescription: description,
    merchantRefId,
  };
}

const coded = (key: RefundResponseKey, merchantRefId: string | null, echo: Echo) =>
  refundAnswer(echo, RefundResponse[key].code, RefundResponse[key].description, merchantRefId);

/** A blank or wrong checksum: Zaakpay's code, counted as a failed authentication. */
function unauthenticated(key: 'checksumBlank' | 'checksumMismatch'): Refusal {
  return new Refusal(RefundResponse[key].code, RefundResponse[key].description, 200, true);
}

/**
 * A signed form (`data` + `checksum`, checkSignedForm), refused as Zaakpay's Update API refuses:
 * 189 without a checksum, 180 for any other failure (data naming no merchant cannot be signed by one).
 */
const signedData: AuthScheme<Merchant> = {
  bodySignature: 'formChecksum',
  from: 'body',
  async authenticate(_ctx, deps, { parsed }) {
    const check = await checkSignedForm(deps.useCases.shared, parsed as SignedDataForm, deps.now());
    if (check.kind === 'signed') return check.merchant;
    return unauthenticated(check.kind === 'noChecksum' ? 'checksumBlank' : 'checksumMismatch');
  },
  limitKey: (merchant) => merchant.merchantIdentifier,
};

/** POST /updateTxn: Zaakpay's Update/Refund API, form fields `data` and `checksum`. */
export const refundOperation = defineOperation({
  method: 'post',
  path: '/updateTxn',
  envelope: 'refund',
  auth: signedData,
  // Once authenticated, `data` is read as strictly as every JSON body (a key given twice is refused).
  body: { contentType: 'application/x-www-form-urlencoded', form: updateTxnFormSchema, schema: updateTxnDataSchema },
  limit: 'refunds',
  reference: refundReference,
  refusalBody: (refusal, parsed) => refundAnswer(echoOf(parsed as SignedDataForm), refusal.code, refusal.text, null),
  async handle({ caller: merchant, body, parsed }, deps) {
    const form = parsed as SignedDataForm;
    const problem = refundRequestProblem(body.updateDesired, body.updateReason);
    if (problem) return coded(problem, body.merchantRefId ?? null, echoOf(form));
    const updateDesired = body.updateDesired as UpdateDesired;
    if (updateDesired === '22' && body.orderDetail.amount === undefined) {
      throw new ApiError('validationFailed', 'orderDetail.amount is required for a partial refund (22)');
    }
    const result = await deps.useCases.merchant.startRefund({
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: body.orderDetail.orderId,
      updateDesired,
      amountPaise: body.orderDetail.amount === undefined ? undefined : Number(body.orderDetail.amount),
      updateReason: body.updateReason as string,
      // Without a merchantRefId the exact `data` string, what the checksum covers, is the key: however
      // the form is re-encoded around it, the same signed request is the same refund.
      ...(body.merchantRefId !== undefined
        ? { merchantRefId: body.merchantRefId }
        : { signedRequest: { entry: 'updateTxn' as const, signedText: form.data } }),
    });
    return coded(result.response, result.merchantRefId, echoOf(form));
  },
});
