import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { decryptPayerVpa } from '../../domain/payer-vpa';
import { confirmMandateDebit } from '../../usecases/confirm-mandate-debit';
import { createMandate, type MandateAnswer } from '../../usecases/create-mandate';
import { notifyMandate } from '../../usecases/notify-mandate';
import type { Merchant } from '../../domain/merchant';
import type { ApiDeps } from '../deps';
import { mandateResponse } from '../mandate-response';
import { authenticateFormChecksum } from '../middleware/authenticate';
import { parseJsonBody, readRawBody, validate } from '../middleware/body';
import { jsonObjectOrNull, parseFormBody } from '../middleware/form-body';
import { mandateDataSchema, mandateFormSchema, type MandateData } from '../schemas/mandates';

/**
 * POST /transactU?v=12|13 (routed here by transact-u.ts): mandate create, notify and execute. Form
 * fields `data` (JSON text) and `checksum`; nothing of `data` is read strictly, nor payerVpa
 * decrypted, before the checksum has authenticated the merchant.
 */
export function mandateRequest(deps: ApiDeps) {
  return async (ctx: Context) => {
    const form = validate(
      mandateFormSchema,
      parseFormBody(await readRawBody(ctx, 'application/x-www-form-urlencoded', deps.config.MAX_BODY_BYTES)),
    );
    if (!form.checksum) throw new ApiError('checksumMissing', 'send the checksum form field');
    const unread = jsonObjectOrNull(form.data);
    if (!unread) throw new ApiError('malformedJson', 'the data field is not a JSON object');
    // `data` that names no merchant cannot be signed by one.
    const named = unread.merchantIdentifier;
    if (typeof named !== 'string' || named.length === 0 || named.length > 64) {
      throw new ApiError('unknownMerchant', 'data names no merchantIdentifier');
    }
    const merchant = await authenticateFormChecksum(deps.merchants, named, form.data, form.checksum, deps.now());
    await deps.rateLimit.consume(ctx, 'mandates', merchant.merchantIdentifier);

    const data = validate(mandateDataSchema, parseJsonBody(Buffer.from(form.data, 'utf8')));
    const privateKeyPem = await deps.merchants.privateKeyPem(merchant.merchantIdentifier, data.encryptionKeyId);
    if (!privateKeyPem) throw new ApiError('unknownEncryptionKey');
    let payerVpa: string;
    try {
      payerVpa = decryptPayerVpa(privateKeyPem, data.paymentInstrument.upiMandate.payerVpa);
    } catch {
      throw new ApiError('payerVpaUndecryptable'); // one answer, whatever went wrong
    }
    ctx.body = mandateResponse(data, await answer(deps, data, payerVpa, merchant));
  };
}

/** The action's use case, given the request in the use case's terms. */
function answer(deps: ApiDeps, data: MandateData, payerVpa: string, merchant: Merchant): Promise<MandateAnswer> {
  const u = data.paymentInstrument.upiMandate;
  const order = data.orderDetail;
  switch (u.action) {
    case 'create':
      return createMandate(deps, merchant, {
        orderId: order.orderId,
        amountPaise: Number(order.amount),
        productDescription: order.productDescription,
        mode: data.paymentInstrument.paymentMode,
        payerVpa,
        config: u.mandateConfig!,
      });
    case 'notify':
      return notifyMandate(deps, merchant, {
        orderId: order.orderId,
        amountPaise: Number(order.amount),
        productDescription: order.productDescription,
        mandateParentOrderId: u.mandateParentOrderId!,
        executionDate: u.executionDate!,
        autoExecute: u.autoExecute ?? true,
      });
    case 'execute':
      return confirmMandateDebit(deps, merchant, { orderId: order.orderId, mandateParentOrderId: u.mandateParentOrderId! });
  }
}
