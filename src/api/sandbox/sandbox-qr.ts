import { BusinessResults } from '../../domain/api-errors';
import { SANDBOX_VPAS } from '../../domain/sandbox-bank';
import { failureBody } from '../envelope';
import { defineOperation, HttpAnswer } from '../operation';
import { sandboxQrPaySchema } from '../schemas/qr';
import { namedMerchant } from './sandbox-caller';
import { sandboxQrPayReference } from './sandbox-qr-openapi';

/** POST /sandbox/v1/qr/pay: a tester scans an open dynamic QR (or a hosted checkout's) and pays it with a test VPA. */
export const sandboxQrPayOperation = defineOperation({
  method: 'post',
  path: '/sandbox/v1/qr/pay',
  onlyWhere: 'sandboxEnabled',
  envelope: 'success',
  auth: namedMerchant(sandboxQrPaySchema),
  body: { contentType: 'application/json', schema: sandboxQrPaySchema },
  limit: 'sandbox',
  reference: sandboxQrPayReference,
  async handle({ caller: merchant, body }, deps) {
    const vpa = body.payerVpa;
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId };
    const checkout = await deps.useCases.sandbox.checkoutOfOrder(order);
    const result = await deps.useCases.sandbox.payQr(
      order,
      { kind: 'UPI', vpa, bankName: SANDBOX_VPAS[vpa].bankName, viaQr: true },
      { checkout: checkout !== null },
    );
    if (result.kind === 'unknownOrder') {
      return failureBody('success', BusinessResults.orderNotFound.code, BusinessResults.orderNotFound.text);
    }
    const data = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId, txnId: result.transaction.txnId };
    if (result.kind !== 'accepted') {
      const refusal = result.kind === 'notQr' ? BusinessResults.notQrOrder : BusinessResults.qrNotOpen;
      return { ...failureBody('success', refusal.code, refusal.text), data };
    }
    return new HttpAnswer({ success: true, data }, { status: 202 });
  },
});
