import { z } from 'zod';

export const deliveryStateSchema = z
  .enum(['pending', 'delivered', 'failed', 'superseded'])
  .describe('superseded: not sent (again) because the order had a later outcome (or chargeback change) before an attempt');

/** Query of GET /ops/v1/webhooks. */
export const listWebhooksQuerySchema = z.strictObject({
  merchantIdentifier: z.string().min(1).max(64).optional(),
  state: deliveryStateSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('at most this many deliveries, newest first'),
});

/** Body of POST /ops/v1/webhooks/replay: replays every failed delivery created since `since`. */
export const replayFailedSchema = z.strictObject({
  since: z.iso.datetime({ offset: true }).describe('ISO 8601 instant; failed deliveries created at or after it are replayed'),
  merchantIdentifier: z.string().min(1).max(64).optional(),
});

const attemptSchema = z.object({
  attempt: z.number().int(),
  at: z.string().describe('ISO 8601 instant (UTC)'),
  httpStatus: z.number().int().nullable(),
  response: z.string().nullable().describe('first 512 bytes of the answer'),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const deliverySchema = z.object({
  deliveryId: z.string(),
  merchantIdentifier: z.string(),
  realtime: z.boolean(),
  url: z.string(),
  state: deliveryStateSchema,
  createdAt: z.string(),
  replayOf: z.string().optional(),
  failureReason: z.string().optional().describe('why a failed delivery stopped early: endpoint disabled'),
  supersededBy: z
    .string()
    .optional()
    .describe(
      'on a superseded delivery: the later change of the order that superseded it (`outcome 2 of the order`, `chargeback change 7 of the order`)',
    ),
  attempts: z.array(attemptSchema),
});

export const listWebhooksResponseSchema = z.object({ success: z.literal(true), data: z.array(deliverySchema) });
export const replayResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ deliveryId: z.string(), replayId: z.string() }),
});
export const replayFailedResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ replayed: z.array(z.object({ deliveryId: z.string(), replayId: z.string() })) }),
});

/** Body of POST /ops/v1/merchants/{merchantIdentifier}/webhook-signing-secret/rotate. */
export const rotateSigningSecretSchema = z.strictObject({
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .optional()
    .describe('how long the replaced secret still signs calls beside the new one (default WEBHOOK_SECRET_ROTATION_OVERLAP)'),
});

export const signingSecretsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    merchantIdentifier: z.string(),
    secrets: z
      .array(
        z.object({
          secret: z.string().describe('whsec_ + base64 of 32 random bytes (Standard Webhooks)'),
          createdAt: z.string(),
          retiresAt: z.string().nullable().describe('set on a replaced secret: it signs calls beside the new one until then'),
        }),
      )
      .describe('newest first; two during a rotation overlap, both signatures sent'),
  }),
});

/** Body of POST /ops/v1/merchants/{merchantIdentifier}/webhook-endpoint/enable: none, or an empty object. */
export const enableEndpointSchema = z.strictObject({});

export const endpointHealthSchema = z.object({
  merchantIdentifier: z.string(),
  state: z.enum(['enabled', 'disabled']).describe('disabled: calls due are not sent, their deliveries fail (replayable)'),
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable().describe('answered 410 Gone, or every attempt failed for WEBHOOK_ENDPOINT_DISABLE_AFTER'),
  failingSince: z.string().nullable().describe('the first failed attempt since the last acknowledged one'),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  attempts: z.number().int(),
  successes: z.number().int(),
});
export const endpointHealthResponseSchema = z.object({ success: z.literal(true), data: endpointHealthSchema });
