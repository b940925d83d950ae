import { BusinessResults } from '../../domain/api-errors';
import { TxnStatus } from '../../domain/txn-status';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation, Refusal } from '../operation';
import { chargebackSchema } from '../schemas/chargebacks';
import { recordByOperator } from './audit-actor';
import { chargebackReference } from './ops-openapi';

const REFUSALS = {
  notAllowed: BusinessResults.chargebackNotAllowed,
  amountExceeds: BusinessResults.chargebackAmountExceeds,
  amountDiffers: BusinessResults.chargebackAmountDiffers,
} as const;

/** POST /ops/v1/chargebacks: an operator records a chargeback the bank raised, or its revert (refused with HTTP 200 and a code). */
export const chargebackOperation = defineOperation({
  method: 'post',
  path: '/ops/v1/chargebacks',
  envelope: 'success',
  auth: operatorToken('money'),
  body: { contentType: 'application/json', schema: chargebackSchema },
  reference: chargebackReference,
  async handle(request, deps) {
    const { body } = request;
    const order = { merchantIdentifier: body.merchantIdentifier, orderId: body.orderId };
    const result = await deps.useCases.ops.applyChargeback(order, body.action, body.amount);
    if (result.kind !== 'applied') {
      const refused = result.kind === 'unknownOrder' ? BusinessResults.orderNotFound : REFUSALS[result.refusal];
      return new Refusal(String(refused.code), refused.text);
    }
    const t = result.transaction;
    deps.logger.info({ ...order, action: body.action, status: t.status }, 'chargeback recorded');
    const action = body.action === 'raise' ? 'chargeback.raised' : 'chargeback.reverted';
    await recordByOperator(deps, request, action, body.merchantIdentifier, {
      orderId: body.orderId,
      amountPaise: body.amount,
      txnStatus: String(TxnStatus[t.status]),
    });
    return {
      success: true,
      data: { ...order, txnStatus: String(TxnStatus[t.status]), chargebackAmount: String(t.chargeback!.amountPaise) },
    };
  },
});
