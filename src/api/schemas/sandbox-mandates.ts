import { z } from 'zod';
import { merchantIdentifierField, orderIdField } from './common';

/** The sandbox payer revokes a mandate, named by the create request's orderId. */
export const sandboxMandateRevokeSchema = z.strictObject({
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField.describe("the mandate's create orderId"),
});

export const sandboxMandateRevokeResponseSchema = z.object({
  success: z.boolean(),
  message: z.object({ code: z.string(), text: z.string() }).optional().describe('present when success is false'),
  data: z
    .object({ merchantIdentifier: z.string(), orderId: z.string(), state: z.string().describe("the mandate's state now") })
    .optional(),
});
