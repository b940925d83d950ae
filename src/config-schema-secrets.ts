import { z } from 'zod';
import { firstDuration, hexKey, instant } from './config-schema-fields';

/** Configuration of secrets: the master key, the operator token, key rotation (`secrets`), and the payload codec's old keys and callers (`payloadCodec`). */
export const secretSettings = z.object({
  PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS: z
    .string()
    .regex(/^\s*[0-9a-fA-F]{64}(\s*,\s*[0-9a-fA-F]{64})*\s*$/, 'a comma-separated list of 64-hexadecimal-character keys')
    .optional()
    .transform((v) => (v ? v.split(',').map((k) => k.trim().toLowerCase()) : []))
    .describe(
      'earlier MASTER_KEYs whose payload-codec keys still decode Temporal payloads (workflows started before a key rotation); new payloads are always sealed under MASTER_KEY',
    ),
  PAYLOAD_CODEC_PLAINTEXT_UNTIL: instant
    .optional()
    .describe(
      'until when Temporal payloads not encrypted (histories written before the payload codec) are still read; unset, they are refused (a workflow task meeting one fails and retries until an operator acts)',
    ),
  CODEC_CORS_ORIGINS: z
    .string()
    .regex(
      /^\s*https?:\/\/[^\s,/]+(\s*,\s*https?:\/\/[^\s,/]+)*\s*$/,
      'a comma-separated list of origins such as http://127.0.0.1:8233',
    )
    .optional()
    .transform((v) => (v ? v.split(',').map((o) => o.trim()) : []))
    .describe(
      "origins (Temporal UI's) whose browsers may call /ops/v1/codec cross-origin: the CORS preflight is answered for them only",
    ),
  MASTER_KEY: hexKey
    .optional()
    .describe(
      'AES-256 key that encrypts secret and private keys at rest; generated into DATA_DIR in development (staging and production: random, not repeated characters)',
    ),
  OPS_TOKEN: z
    .string()
    .min(24, 'must be at least 24 characters')
    .optional()
    .describe(
      'bearer token of the operator API (/ops/v1), read by the API only (the worker starts without it); generated into DATA_DIR in development (staging and production: at least 32 random characters)',
    ),
  SECRET_KEY_ROTATION_OVERLAP: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*$/, 'a wait such as 24h')
    .default('24h')
    .transform(firstDuration)
    .describe("after a merchant's secret key is rotated, how long checksums made with the old one are still accepted"),
});
