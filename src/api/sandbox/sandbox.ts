import { ApiError, BusinessResults } from '../../domain/api-errors';
import { cardIdentifier, cardIdKey } from '../../domain/card';
import { sandboxInstrument } from '../../domain/sandbox-bank';
import { extraProductDescriptions } from '../../domain/transaction';
import { TxnStatus } from '../../domain/txn-status';
import type { ApiDeps } from '../deps';
import { failureBody } from '../envelope';
import { defineOperation, HttpAnswer } from '../operation';
import { sandboxPaymentSchema, type SandboxPaymentRequest } from '../schemas/sandbox';
import { namedMerchant } from './sandbox-caller';
import { sandboxPaymentReference } from './sandbox-openapi';

/** The request's test instrument, or the catalogue's 400 for one that is not (checked before the merchant is looked up). */
function instrumentOf(body: SandboxPaymentRequest, deps: ApiDeps) {
  const instrument = sandboxInstrument(body, (pan) => cardIdentifier(pan, cardIdKey(deps.config.secrets.masterKey)));
  if (!instrument.ok) throw new ApiError('validationFailed', instrument.problem);
  return instrument.instrument;
}

/**
 * POST /sandbox/v1/payments: a tester plays the payer. The order is created and paid with a test
 * instrument; the answer carries the txnId at once and the outcome arrives through the workflow.
 */
export const sandboxPaymentOperation = defineOperation({
  method: 'post',
  path: '/sandbox/v1/payments',
  onlyWhere: 'sandboxEnabled',
  envelope: 'success',
  auth: namedMerchant(sandboxPaymentSchema, instrumentOf),
  body: { contentType: 'application/json', schema: sandboxPaymentSchema },
  limit: 'sandbox',
  reference: sandboxPaymentReference,
  async handle({ caller: merchant, body, ip }, deps) {
    const result = await deps.useCases.sandbox.startPayment({
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: body.orderId,
      amountPaise: body.amount,
      productDescription: body.productDescription,
      ...extraProductDescriptions(body),
      buyerName: body.buyerName ?? null,
      buyerEmail: body.buyerEmail ?? null,
      ipAddress: ip,
      instrument: instrumentOf(body, deps),
    });

    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId };
    const conflict = BusinessResults.orderConflict;
    if (result.kind === 'taken') {
      // A mandate, or a mandate's first debit still to come (Pending until it is made).
      const held = await deps.useCases.sandbox.readOrder(order);
      const data = { ...order, txnId: held?.orderDetail.txnId ?? result.txnId, txnStatus: held?.txnStatus ?? '2' };
      return { ...failureBody('success', conflict.code, conflict.text), data };
    }
    const t = result.transaction;
    const data = { ...order, txnId: t.txnId, txnStatus: String(TxnStatus[t.status]) };
    if (result.kind === 'conflict') return { ...failureBody('success', conflict.code, conflict.text), data };
    return new HttpAnswer({ success: true, data }, { status: result.kind === 'started' ? 202 : 200 });
  },
});
