import { z } from 'zod';
import { amountPaiseField, merchantIdentifierField, orderIdField } from './common';

export const chargebackSchema = z.strictObject({
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField,
  amount: amountPaiseField.describe('integer paise; the whole amount gives Chargeback (6), less Partial Chargeback (8)'),
  action: z.enum(['raise', 'revert']).describe('revert needs the amount that was raised'),
});

export const chargebackResponseSchema = z.object({
  success: z.boolean(),
  message: z.object({ code: z.string(), text: z.string() }).optional().describe('present when success is false'),
  data: z
    .object({
      merchantIdentifier: z.string(),
      orderId: z.string(),
      txnStatus: z.enum(['5', '6', '7', '8']),
      chargebackAmount: z.string().describe('paise'),
    })
    .optional(),
});
