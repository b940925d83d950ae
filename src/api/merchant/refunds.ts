import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { checksumMatches } from '../../domain/checksum';
import { RefundResponse, refundRequestProblem, type RefundResponseKey, type UpdateDesired } from '../../domain/refund';
import { startRefund, startRefundDeps } from '../../usecases/start-refund';
import type { ApiDeps } from '../deps';
import { authenticationFailed } from '../middleware/abuse-limits';
import { requireMerchant, verifiedWithKeysInForce } from '../middleware/authenticate';
import { parseJsonBody, readRawBody, validate } from '../middleware/body';
import { jsonObjectOrNull, parseFormBody } from '../middleware/form-body';
import { updateTxnDataSchema, updateTxnFormSchema } from '../schemas/refunds';

/** POST /updateTxn: Zaakpay's Update/Refund API, form fields `data` and `checksum`. */
export function refundRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/updateTxn', async (ctx) => {
    const form = validate(
      updateTxnFormSchema,
      parseFormBody(await readRawBody(ctx, 'application/x-www-form-urlencoded', deps.config.MAX_BODY_BYTES)),
    );
    const data = jsonObjectOrNull(form.data);
    const merchantIdentifier = typeof data?.merchantIdentifier === 'string' ? data.merchantIdentifier : null;
    const orderId = readOrderId(data);
    // Every answer is HTTP 200 with Zaakpay's code, refusals included, as Zaakpay answers.
    const answer = (key: RefundResponseKey, merchantRefId: string | null = null) => {
      respond(ctx, { merchantIdentifier, orderId, key, merchantRefId });
    };
    const unauthenticated = (key: RefundResponseKey) => {
      authenticationFailed(ctx);
      answer(key);
    };

    // Authentication first: until the checksum matches, nothing of `data` is validated.
    if (!form.checksum) return unauthenticated('checksumBlank');
    // `data` that names no merchant cannot be signed by one: its checksum matches nothing.
    if (!merchantIdentifier || merchantIdentifier.length > 64) return unauthenticated('checksumMismatch');
    const merchant = await requireMerchant(deps.merchants, merchantIdentifier);
    const checksum = form.checksum;
    if (
      !(await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) => checksumMatches(keys, form.data, checksum)))
    )
      return unauthenticated('checksumMismatch');
    await deps.rateLimit.consume(ctx, 'refunds', merchant.merchantIdentifier);

    // Authenticated: now read `data` as strictly as every JSON body (a key given twice is refused).
    const body = validate(updateTxnDataSchema, parseJsonBody(Buffer.from(form.data, 'utf8')));
    const problem = refundRequestProblem(body.updateDesired, body.updateReason);
    if (problem) return answer(problem, body.merchantRefId ?? null);
    const updateDesired = body.updateDesired as UpdateDesired;
    if (updateDesired === '22' && body.orderDetail.amount === undefined) {
      throw new ApiError('validationFailed', 'orderDetail.amount is required for a partial refund (22)');
    }

    const result = await startRefund(startRefundDeps(deps), {
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
    answer(result.response, result.merchantRefId);
  });
  return router;
}

function respond(
  ctx: Context,
  r: { merchantIdentifier: string | null; orderId: string | null; key: RefundResponseKey; merchantRefId: string | null },
) {
  const code = RefundResponse[r.key];
  ctx.body = {
    merchantIdentifier: r.merchantIdentifier,
    orderDetail: r.orderId === null ? null : { orderId: r.orderId },
    responseCode: code.code,
    responseDescription: code.description,
    merchantRefId: r.merchantRefId,
  };
}

/** The order id as sent, for echoing in answers given before the body is validated. */
function readOrderId(data: unknown): string | null {
  const orderId = (data as { orderDetail?: { orderId?: unknown } } | null)?.orderDetail?.orderId;
  return typeof orderId === 'string' && orderId.length <= 64 ? orderId : null;
}
