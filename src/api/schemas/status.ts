import { z } from 'zod';
import { statusOrderRecordSchema } from '../../domain/status-record';
import { merchantIdentifierField, orderIdField } from './common';

export const DEFAULT_STATUS_VERSION = 13;

/** Only what finding the merchant takes, read before the checksum is checked. */
export const statusCallerSchema = z.object({ merchantIdentifier: merchantIdentifierField });

export const statusRequestSchema = z.object({
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField,
  version: z.number().int().min(1).max(999).optional().describe('echoed as a string; 13 when absent'),
});
export type StatusRequest = z.infer<typeof statusRequestSchema>;

export const statusResponseSchema = z.object({
  status: z.boolean(),
  message: z.object({ code: z.number().int(), text: z.string() }),
  data: z.object({
    success: z.boolean(),
    merchantIdentifier: z.string(),
    version: z.string(),
    orders: z.array(statusOrderRecordSchema),
  }),
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;
