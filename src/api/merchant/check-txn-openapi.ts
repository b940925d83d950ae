import { z } from 'zod';
import { CheckTxnCodes } from '../../domain/check-txn';
import type { OperationReference } from '../operation';
import { signedDataForm } from '../reference/examples';
import { checkTxnAnswerSchema, checkTxnFormSchema } from '../schemas/check-txn';

/** Zaakpay's legacy status API in the API reference. */
export const checkTxnReference: OperationReference = {
  summary: "Zaakpay's legacy status API (v=5): one order, its card and its refunds",
  description: `Form fields \`data\` and \`checksum\` = HMAC-SHA256 (hex) of the exact \`data\` text with the secret key. \`data\` is {merchantIdentifier, mode, orderDetail: {orderId}, refundDetail?: {merchantRefId}} as JSON, or unquoted as some PHP kits send it ({merchantIdentifier:X,mode:0,orderDetail:{orderId:Y}}); the checksum is checked over the raw text first. The answer lists the order as the status API's record with orderDetail.product1Description..product4Description and card {cardToken, cardId, cardScheme, first4, last4, bank, cardHashId, paymentMethod} (NA without a card), its responseCode, responseDescription and txnId mirrored at the top level; with a merchantRefId only that refund is listed. Every answer is HTTP 200 with its code, refusals included, as Zaakpay answers (only 413, 415, 429 with Retry-After and 503 keep their status lines); an unknown order's orders[0] carries its orderId and 190. Codes: ${Object.values(
    CheckTxnCodes,
  )
    .map((c) => `${c.code} ${c.description}`)
    .join('; ')}.`,
  query: z.object({ v: z.string().optional().describe('5 (the version answered; the value is not read)') }),
  // The fields as documented; the operation reads them more leniently, to answer each refusal with its code.
  request: checkTxnFormSchema,
  queryExample: { v: '5' },
  example: signedDataForm({ mode: '0', orderDetail: { orderId: 'checkout-1001' } }),
  responses: {
    200: {
      description: 'the order (success true), or a refusal with its code (success false)',
      schema: checkTxnAnswerSchema,
    },
  },
  errors: [413, 415, 429, 503],
  errorEnvelope: checkTxnAnswerSchema,
};
