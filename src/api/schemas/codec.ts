import { z } from 'zod';

const base64 = z
  .string()
  .max(4 * 1024 * 1024)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

/**
 * Temporal's codec-server body, both ways: Payloads as protobuf JSON (metadata values and data in
 * base64), as Temporal UI and the CLI send and expect.
 */
export const codecPayloadsSchema = z
  .object({
    payloads: z
      .array(
        z
          .object({
            metadata: z
              .record(z.string().max(256), base64)
              .optional()
              .describe('encoding (e.g. binary/encrypted) and, when encrypted, encryption-key-id'),
            data: base64.optional(),
          })
          .strict(),
      )
      .max(1000),
  })
  .strict();
