import { ApiError } from '../../domain/api-errors';
import { decryptPayerVpa } from '../../domain/payer-vpa';
import type { MandateAnswer } from '../../domain/mandate';
import type { Merchant } from '../../domain/merchant';
import type { ApiDeps } from '../deps';
import { mandateResponse } from '../mandate-response';
import { defineOperation } from '../operation';
import { formDataChecksum } from '../operation-auth';
import { mandateDataSchema, mandateFormSchema, SUPPORTED_MANDATE_VERSIONS, type MandateData } from '../schemas/mandates';
import { transactUReference } from './mandates-openapi';

/**
 * POST /transactU?v=12|13: mandate create, notify and execute (v=8, the custom checkout, is
 * transact-u.ts's). Form fields `data` (JSON text) and `checksum`; nothing of `data` is read
 * strictly, nor payerVpa decrypted, before the checksum has authenticated the merchant.
 */
export const mandateOperation = defineOperation({
  method: 'post',
  path: '/transactU',
  selectedBy: { parameter: 'v', values: SUPPORTED_MANDATE_VERSIONS },
  envelope: 'mandate',
  auth: formDataChecksum,
  body: { contentType: 'application/x-www-form-urlencoded', form: mandateFormSchema, schema: mandateDataSchema },
  limit: 'mandates',
  reference: transactUReference,
  async handle({ caller: merchant, body: data }, deps) {
    const privateKeyPem = await deps.useCases.merchant.privateKeyPem(merchant.merchantIdentifier, data.encryptionKeyId);
    if (!privateKeyPem) throw new ApiError('unknownEncryptionKey');
    let payerVpa: string;
    try {
      payerVpa = decryptPayerVpa(privateKeyPem, data.paymentInstrument.upiMandate.payerVpa);
    } catch {
      throw new ApiError('payerVpaUndecryptable'); // one answer, whatever went wrong
    }
    return mandateResponse(data, await answer(deps, data, payerVpa, merchant));
  },
});

/** The action's use case, given the request in the use case's terms. */
function answer(deps: ApiDeps, data: MandateData, payerVpa: string, merchant: Merchant): Promise<MandateAnswer> {
  const u = data.paymentInstrument.upiMandate;
  const order = data.orderDetail;
  switch (u.action) {
    case 'create':
      return deps.useCases.merchant.createMandate(merchant, {
        orderId: order.orderId,
        amountPaise: Number(order.amount),
        productDescription: order.productDescription,
        mode: data.paymentInstrument.paymentMode,
        payerVpa,
        config: u.mandateConfig!,
      });
    case 'notify':
      return deps.useCases.merchant.notifyMandate(merchant, {
        orderId: order.orderId,
        amountPaise: Number(order.amount),
        productDescription: order.productDescription,
        mandateParentOrderId: u.mandateParentOrderId!,
        executionDate: u.executionDate!,
        autoExecute: u.autoExecute ?? true,
      });
    case 'execute':
      return deps.useCases.merchant.confirmMandateDebit(merchant, {
        orderId: order.orderId,
        mandateParentOrderId: u.mandateParentOrderId!,
      });
  }
}
