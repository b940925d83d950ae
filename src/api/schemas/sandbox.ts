import { z } from 'zod';
import { amountPaiseField, descriptionField, merchantIdentifierField, orderIdField } from './common';

export const sandboxPaymentSchema = z
  .object({
    merchantIdentifier: merchantIdentifierField,
    orderId: orderIdField,
    amount: amountPaiseField,
    productDescription: descriptionField,
    buyerName: z.string().trim().min(1).max(100).optional(),
    buyerEmail: z.email().max(254).optional(),
    payerVpa: z.string().min(3).max(100).optional(),
    cardNumber: z
      .string()
      .regex(/^\d{12,19}$/, 'must be 12-19 digits')
      .optional(),
    bankCode: z
      .string()
      .regex(/^[A-Za-z]{4}$/, 'must be a 4-letter bank code')
      .optional(),
  })
  .refine((b) => [b.payerVpa, b.cardNumber, b.bankCode].filter((v) => v !== undefined).length === 1, {
    message: 'exactly one of payerVpa, cardNumber or bankCode is required',
  });
export type SandboxPaymentRequest = z.infer<typeof sandboxPaymentSchema>;

export const sandboxPaymentResponseSchema = z.object({
  success: z.boolean(),
  message: z.object({ code: z.string(), text: z.string() }).optional().describe('present when success is false'),
  data: z.object({
    merchantIdentifier: z.string(),
    orderId: z.string(),
    txnId: z.string(),
    txnStatus: z.string().describe('txnStatus code at the time of the answer'),
  }),
});
