import { z } from 'zod';
import { merchantIdentifierField, orderIdField } from './common';

export const DEFAULT_STATUS_VERSION = 13;

export const statusRequestSchema = z.object({
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField,
  version: z.number().int().min(1).max(999).optional(),
});
export type StatusRequest = z.infer<typeof statusRequestSchema>;
