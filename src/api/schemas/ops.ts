import { z } from 'zod';
import { returnUrlField } from './common';

export const webhookUrlField = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

/** A merchant moving from another Zaakpay-compatible gateway keeps its credentials (design.md, Importing a merchant). */
const importedIdentifier = z.string().regex(/^[A-Za-z0-9]{6,64}$/, 'must be 6 to 64 letters and digits');
const importedSecret = z.string().regex(/^[\x20-\x7e]{16,128}$/, 'must be 16 to 128 printable ASCII characters');

export const createMerchantSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^\S(?:[\s\S]*\S)?$/, 'must not start or end with whitespace'),
  webhookUrl: webhookUrlField.optional(),
  merchantIdentifier: importedIdentifier
    .optional()
    .describe('import: the identifier the merchant already uses (6-64 letters and digits); generated when absent'),
  secretKey: importedSecret.optional().describe('import: the secret key the merchant already signs with; generated when absent'),
});

export const merchantCredentialsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z
      .string()
      .regex(/^[A-Za-z0-9]{6,64}$/)
      .describe('32 lowercase hex when generated'),
    secretKey: z
      .string()
      .regex(/^[\x20-\x7e]{16,128}$/)
      .describe('32 lowercase hex when generated'),
    apiKey: z.string(),
    encryptionKeyId: z.string(),
    publicKeyPem: z.string().describe('RSA 2048 public key (SPKI PEM) for encrypting payerVpa'),
  }),
});

export const merchantSettingsSchema = z
  .strictObject({
    webhookUrl: webhookUrlField.nullable().optional().describe('null removes it'),
    webhookFormat: z.enum(['form', 'json']).optional().describe('body of webhook calls: form (default) or JSON'),
    autoRefund: z.boolean().optional().describe('refund a reconciled delayed success at once'),
    settlementWebhook: z
      .boolean()
      .optional()
      .describe('send a `settlement.processed` webhook when a settlement is paid (off by default)'),
    defaultReturnUrl: returnUrlField
      .nullable()
      .optional()
      .describe('where a hosted checkout sends the payer back when its request has no returnUrl; null removes it'),
  })
  .refine((s) => Object.keys(s).length > 0, {
    message: 'send at least one of webhookUrl, webhookFormat, autoRefund, settlementWebhook, defaultReturnUrl',
  })
  .meta({ minProperties: 1 });

export const merchantSettingsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string(),
    name: z.string(),
    webhookUrl: z.string().nullable(),
    webhookFormat: z.enum(['form', 'json']),
    autoRefund: z.boolean(),
    settlementWebhook: z.boolean(),
    defaultReturnUrl: z.string().nullable(),
  }),
});
