import { z } from 'zod';

export const webhookUrlField = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

export const createMerchantSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^\S(?:[\s\S]*\S)?$/, 'must not start or end with whitespace'),
  webhookUrl: webhookUrlField.optional(),
});

export const merchantCredentialsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string().regex(/^[0-9a-f]{32}$/),
    secretKey: z.string().regex(/^[0-9a-f]{32}$/),
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
  })
  .refine((s) => Object.keys(s).length > 0, { message: 'send at least one of webhookUrl, webhookFormat, autoRefund' })
  .meta({ minProperties: 1 });

export const merchantSettingsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string(),
    name: z.string(),
    webhookUrl: z.string().nullable(),
    webhookFormat: z.enum(['form', 'json']),
    autoRefund: z.boolean(),
  }),
});
