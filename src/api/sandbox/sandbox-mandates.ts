import { BusinessResults } from '../../domain/api-errors';
import { failureBody } from '../envelope';
import { defineOperation } from '../operation';
import { sandboxMandateRevokeSchema } from '../schemas/sandbox-mandates';
import { namedMerchant } from './sandbox-caller';
import { sandboxMandateRevokeReference } from './sandbox-mandates-openapi';

/** POST /sandbox/v1/mandates/revoke: a tester plays the payer revoking an active mandate. */
export const sandboxMandateRevokeOperation = defineOperation({
  method: 'post',
  path: '/sandbox/v1/mandates/revoke',
  onlyWhere: 'sandboxEnabled',
  envelope: 'success',
  auth: namedMerchant(sandboxMandateRevokeSchema),
  body: { contentType: 'application/json', schema: sandboxMandateRevokeSchema },
  limit: 'sandbox',
  reference: sandboxMandateRevokeReference,
  async handle({ caller: merchant, body }, deps) {
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: body.orderId };
    const result = await deps.useCases.sandbox.revokeMandate(order);
    if (result.kind === 'unknownMandate') {
      return failureBody('success', BusinessResults.mandateNotFound.code, BusinessResults.mandateNotFound.text);
    }
    const data = { ...order, state: result.state };
    if (result.kind === 'notActive') {
      const refusal = BusinessResults.mandateNotActive;
      return { ...failureBody('success', refusal.code, `${refusal.text}: it is ${result.state}`), data };
    }
    return { success: true, data };
  },
});
