import type { OperationReference } from '../operation';
import { signedDataForm } from '../reference/examples';
import { updateTxnDataSchema, updateTxnResponseSchema } from '../schemas/refunds';

/** The refund operation's entry in the API reference (Zaakpay's Update/Refund API); the form's fields are its request. */
export const refundReference: OperationReference = {
  summary: 'Refund all or part of a successful order',
  description: `Form fields \`data\` (JSON text) and \`checksum\`. \`data\`: ${JSON.stringify(
    Object.keys(updateTxnDataSchema.shape),
  )}; orderDetail.orderId, orderDetail.amount (paise as a string, or a whole number: required for 22, ignored by 14, which refunds what remains; \`""\` is no amount); fields it does not know, in the form or in \`data\`, are ignored. Every answer is HTTP 200 with Zaakpay's code, refusals included, as Zaakpay answers (clients such as axios, or \`fetch\` checking \`r.ok\`, read the code instead of throwing): 230 full refund initiated, 245 partial refund initiated, 184 updateDesired blank, 185 not 14 or 22, 186 updateReason blank, 187 not 5-30 letters, digits and spaces, 190 order unknown, not successful, or charged back, 201 more than remains or nothing remains, 21 merchantRefId reused with another request, 189 checksum blank, 180 checksum does not match, 2012 unknown merchant; in the same shape, fields null: 2001 data is not JSON, 2002 a field is invalid, 2005 the form is malformed (not UTF-8, a field twice). Only a body too large (413), another content type (415), a rate limit (429, with Retry-After) and an outage (503) keep their status lines. A refund is PENDING until the bank answers (status API refundDetails); txnStatus is 4 while something remains and 3 when nothing does; a refund the bank fails gives its amount back.`,
  example: signedDataForm({
    mode: '0',
    orderDetail: { orderId: 'order-1001', amount: '2500' },
    updateDesired: '22',
    updateReason: 'Damaged item',
    merchantRefId: 'refund-1001-a',
  }),
  responses: { 200: { description: 'a Zaakpay response code', schema: updateTxnResponseSchema } },
  errors: [413, 415, 429, 503],
  errorEnvelope: updateTxnResponseSchema,
};
