import { z } from 'zod';

export const webhookUrlField = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

export const createMerchantSchema = z.object({
  name: z.string().trim().min(1).max(100),
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
