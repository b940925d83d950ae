import { z } from 'zod';
import { QR_SIZE } from '../../domain/qr-png';
import { SANDBOX_VPAS } from '../../domain/sandbox-bank';
import { amountPaiseField, descriptionField, emailField, emptyAsAbsent, merchantIdentifierField, orderIdField } from './common';

const qrSide = z
  .number()
  .int()
  .min(QR_SIZE.min)
  .max(QR_SIZE.max)
  .default(QR_SIZE.default)
  .describe(`pixels, ${QR_SIZE.min} to ${QR_SIZE.max}; ${QR_SIZE.default} when absent`);

export const createQrSchema = z.object({
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField,
  amount: amountPaiseField.describe('integer paise'),
  productDescription: descriptionField,
  buyerEmail: emptyAsAbsent(emailField),
  width: qrSide,
  height: qrSide,
  checksum: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/)
    .describe('HMAC-SHA256 (hex) of merchantIdentifier + orderId + amount + productDescription, no separators'),
});

export const qrPaymentRecordSchema = z.object({
  orderId: z.string(),
  serviceOrderId: z.string().describe('the gateway txnId'),
  qrDetails: z
    .object({
      url: z.string().describe('percent-encoded UPI intent: upi://pay?pa=..&pn=..&am=..&tr=..&tn=..&cu=INR&mc=..'),
      imgUrl: z.string().describe('signed address of the QR image (GET, image/png)'),
      imgData: z.string().describe('base64 PNG of the requested width and height'),
    })
    .optional()
    .describe('absent when the order id belongs to another kind of payment (code 128)'),
});

export const createQrResponseSchema = z.object({
  success: z.boolean().describe('true for a new order (208); false for a repeated order id (128)'),
  message: z.object({ code: z.enum(['208', '128']), text: z.string() }),
  data: qrPaymentRecordSchema,
});

export const qrImageQuerySchema = z.object({
  mid: merchantIdentifierField,
  width: z.string().regex(/^(1000|[1-9]\d{2})$/, 'must be 100 to 1000'),
  height: z.string().regex(/^(1000|[1-9]\d{2})$/, 'must be 100 to 1000'),
  data: z.string().min(1).max(4096).describe('the percent-encoded UPI intent'),
  checksum: z.string().regex(/^[0-9a-fA-F]{64}$/),
});

export const sandboxQrPaySchema = z.strictObject({
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField,
  payerVpa: z.enum(Object.keys(SANDBOX_VPAS) as [string, ...string[]]),
});

export const sandboxQrPayResponseSchema = z.object({
  success: z.boolean(),
  message: z.object({ code: z.string(), text: z.string() }).optional().describe('present when success is false'),
  data: z.object({ merchantIdentifier: z.string(), orderId: z.string(), txnId: z.string() }).optional(),
});
