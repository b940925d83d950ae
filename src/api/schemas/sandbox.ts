import { z } from 'zod';
import { MIN_BANK_AMOUNT_PAISE } from '../../domain/money';
import { SANDBOX_CARDS, SANDBOX_NETBANKING, SANDBOX_VPAS } from '../../domain/sandbox-bank';
import { amountPaiseField, descriptionField, emailField, emptyAsAbsent, merchantIdentifierField, orderIdField } from './common';

const order = {
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField,
  amount: amountPaiseField.describe(`integer paise; below ${MIN_BANK_AMOUNT_PAISE} the sandbox bank declines with 1021`),
  productDescription: descriptionField,
  product1Description: descriptionField.optional(),
  product2Description: descriptionField.optional(),
  product3Description: descriptionField.optional(),
  product4Description: descriptionField.optional(),
  buyerName: z.string().trim().min(1).max(100).optional().describe('surrounding whitespace is removed'),
  buyerEmail: emptyAsAbsent(emailField),
};
const names = (table: Record<string, unknown>) => Object.keys(table) as [string, ...string[]];

/** Exactly one test instrument: the payer's choice decides the outcome (design.md, Sandbox and test instruments). */
export const sandboxPaymentSchema = z.union([
  z.strictObject({ ...order, payerVpa: z.enum(names(SANDBOX_VPAS)).describe('success, decline or no bank answer') }),
  z.strictObject({
    ...order,
    cardNumber: z.enum(names(SANDBOX_CARDS)).describe('4012001037141112 pays, 4000000000000002 is declined'),
  }),
  z.strictObject({ ...order, bankCode: z.enum(names(SANDBOX_NETBANKING)).describe('SBIN pays, FAIL is declined') }),
]);
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
