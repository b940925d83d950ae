import { z } from 'zod';
import { rotateSigningSecretSchema } from './webhooks';

/** The merchant's keys (ops API; the dashboard's forms use the same fields). Unknown fields are refused. */

export const apiKeyLabelField = z
  .string()
  .trim()
  .min(1, 'give the key a label')
  .max(60)
  .regex(/^[\x20-\x7e]+$/, 'printable ASCII only');

export const createApiKeySchema = z.strictObject({
  label: apiKeyLabelField.describe('what the key is for, e.g. "ledger export"'),
});
export const noBodySchema = z.strictObject({});

export const rotateSecretKeySchema = z.strictObject({
  overlapSeconds: rotateSigningSecretSchema.shape.overlapSeconds.describe(
    'how long checksums made with the old key are still accepted (default SECRET_KEY_ROTATION_OVERLAP, 24h)',
  ),
});

export const revokePreviousSecretKeySchema = z.strictObject({
  previousKeyAcceptedUntil: z.iso
    .datetime({ offset: true })
    .describe(
      "the rotation's previousKeyAcceptedUntil, naming the previous key to revoke: a request made before a newer rotation names a key that is no longer the previous one and revokes nothing (404, code 2048)",
    ),
});

const apiKeyView = z.object({
  keyId: z.string().describe('ak_ and the first 16 hex digits of the key’s SHA-256: names the key, is not the key'),
  label: z.string(),
  createdAt: z.string().nullable(),
  lastUsedAt: z.string().nullable().describe('updated at most once a minute'),
  revokedAt: z.string().nullable(),
});

export const apiKeyListResponseSchema = z.object({ success: z.literal(true), data: z.object({ apiKeys: z.array(apiKeyView) }) });
export const apiKeyCreatedResponseSchema = z.object({
  success: z.literal(true),
  data: apiKeyView.extend({ apiKey: z.string().describe('shown in this answer only') }),
});
export const apiKeyResponseSchema = z.object({ success: z.literal(true), data: apiKeyView });
export const secretKeyRotatedResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string(),
    secretKey: z.string().describe('the new key: shown in this answer only'),
    previousKeyAcceptedUntil: z.string(),
  }),
});
export const encryptionKeysResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string(),
    encryptionKeys: z
      .array(z.object({ encryptionKeyId: z.string(), publicKeyPem: z.string(), createdAt: z.string() }))
      .describe('the keys that decrypt payerVpa, newest first (encrypt with the first)'),
  }),
});
export const previousSecretKeyRevokedResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string(),
    previousKeyRevokedAt: z.string().describe('from this instant only the current secret key is accepted'),
  }),
});
