import { z } from 'zod';
import { checkTxnOrderRecordSchema, checkTxnUnknownOrderSchema } from '../../domain/check-txn';
import { modeField, orderIdField } from './common';

/** The form of `POST /checkTxn?v=5`. */
export const checkTxnFormSchema = z.object({
  data: z
    .string()
    .min(1)
    .describe(
      '{merchantIdentifier, mode, orderDetail: {orderId}, refundDetail?: {merchantRefId}} as JSON text, or unquoted as some PHP kits send it ({merchantIdentifier:X,mode:0,orderDetail:{orderId:Y}}); the checksum covers these exact characters',
    ),
  checksum: z.string().optional().describe('HMAC-SHA256 (hex) of the exact `data` string with the secret key'),
});

/** `data`, after the checksum matched (read from JSON or the unquoted form; bare values are text). */
export const checkTxnDataSchema = z.object({
  merchantIdentifier: z.string().min(1).max(64),
  mode: modeField.optional(),
  orderDetail: z.object({ orderId: orderIdField }),
  refundDetail: z.object({ merchantRefId: z.string().min(1).max(64) }).optional(),
});

export const checkTxnResponseSchema = z.object({
  success: z.boolean(),
  merchantIdentifier: z.string().nullable(),
  version: z.literal('5'),
  orders: z.array(checkTxnOrderRecordSchema),
  responseCode: z.string().describe("the order's responseCode, or the refusal's code (110, 111, 129, 180, 189, 190, 191)"),
  responseDescription: z.string(),
  txnId: z.string().optional().describe("the order's txnId, mirrored from orders[0]"),
});
export type CheckTxnResponse = z.infer<typeof checkTxnResponseSchema>;

/** Every answer: the order found, or a refusal, whose orders are empty but for an unknown order's entry (190). */
export const checkTxnAnswerSchema = checkTxnResponseSchema.extend({
  orders: z
    .array(z.union([checkTxnOrderRecordSchema, checkTxnUnknownOrderSchema]))
    .describe('the order; for an unknown order (190) one entry with its orderId and the code; empty for the other refusals'),
});
