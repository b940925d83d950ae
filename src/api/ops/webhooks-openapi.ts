import { z } from 'zod';
import { EXAMPLE_MERCHANT, pathParameter } from '../reference/examples';
import { operation, successError } from '../reference/operation';
import {
  listWebhooksQuerySchema,
  listWebhooksResponseSchema,
  replayFailedResponseSchema,
  replayFailedSchema,
  replayResponseSchema,
  rotateSigningSecretSchema,
  enableEndpointSchema,
  endpointHealthResponseSchema,
  signingSecretsResponseSchema,
} from '../schemas/webhooks';

/** Operator operations on webhook deliveries. */
export function webhookPaths(): Record<string, object> {
  return {
    ...deliveryPaths(),
    ...webhookSecretPaths(),
    ...webhookEndpointPaths(),
  };
}

/** Deliveries: listed and replayed. */
function deliveryPaths(): Record<string, object> {
  return {
    '/ops/v1/webhooks': {
      get: operation({
        summary: 'Webhook deliveries with their attempts, newest first (operator)',
        description:
          'Filter by merchant and state (pending, delivered, failed). Each attempt: time, HTTP status, the first 512 bytes of the answer, error, duration.',
        security: [{ operatorToken: [] }],
        in: 'query',
        request: listWebhooksQuerySchema,
        example: { merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier, state: 'failed', limit: '20' },
        responses: { 200: { description: 'the deliveries', schema: listWebhooksResponseSchema } },
        errors: [400, 401, 503],
        errorEnvelope: successError,
      }),
    },
    '/ops/v1/webhooks/replay': {
      post: operation({
        summary: 'Replay every failed delivery created since a time (operator)',
        description:
          'Each failed original delivery created at or after `since` (optionally of one merchant), oldest first to the end, is sent again as a replay of the same txnData (id `<original>:replay-<n>`, linked by replayOf); originals whose latest replay is pending or delivered are skipped and replays are never replayed, so the same request repeated starts nothing. Answers the replays this call started.',
        security: [{ operatorToken: [] }],
        request: replayFailedSchema,
        example: { since: '2026-11-23T00:00:00+05:30', merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier },
        responses: { 202: { description: 'the replays started', schema: replayFailedResponseSchema } },
        errors: [400, 401, 413, 415, 503],
        errorEnvelope: successError,
      }),
    },
    '/ops/v1/webhooks/{deliveryId}/replay': {
      post: {
        ...operation({
          summary: 'Send one delivery again (operator)',
          description:
            "A replay (its own id `<original>:replay-<n>`, attempts and schedule) of the original's stored txnData, linked by replayOf and signed with the keys in force. Idempotent: while the latest replay is pending or delivered it is answered and nothing is sent; a replay's id replays its original. Unknown id: 404, code 2044.",
          security: [{ operatorToken: [] }],
          in: 'query',
          request: z.object({}),
          example: {},
          responses: { 202: { description: 'the replay started', schema: replayResponseSchema } },
          errors: [401, 404, 503],
          errorEnvelope: successError,
        }),
        parameters: [pathParameter('deliveryId')],
      },
    },
  };
}

/** A merchant's webhook signing secret. */
function webhookSecretPaths(): Record<string, object> {
  return {
    '/ops/v1/merchants/{merchantIdentifier}/webhook-signing-secret': {
      get: {
        ...operation({
          summary: "A merchant's webhook signing secrets in use (operator)",
          description:
            'The Standard Webhooks secrets (whsec_...) that sign webhook-signature, newest first; during a rotation overlap the replaced one too, with its retiresAt. A merchant without one gets one. Unknown merchant: 404, code 2042.',
          security: [{ operatorToken: [] }],
          in: 'query',
          request: z.object({}),
          example: {},
          responses: { 200: { description: 'the secrets in use', schema: signingSecretsResponseSchema } },
          errors: [401, 404, 503],
          errorEnvelope: successError,
        }),
        parameters: [pathParameter('merchantIdentifier')],
      },
    },
    '/ops/v1/merchants/{merchantIdentifier}/webhook-signing-secret/rotate': {
      post: {
        ...operation({
          summary: "Rotate a merchant's webhook signing secret (operator)",
          description:
            'A new secret signs every attempt from now on; the secrets in use keep signing beside it for the overlap (default WEBHOOK_SECRET_ROTATION_OVERLAP, 24h), so calls carry two signatures meanwhile. Unknown merchant: 404, code 2042.',
          security: [{ operatorToken: [] }],
          request: rotateSigningSecretSchema,
          example: { overlapSeconds: 86400 },
          responses: { 200: { description: 'the secrets now in use', schema: signingSecretsResponseSchema } },
          errors: [400, 401, 404, 413, 415, 503],
          errorEnvelope: successError,
        }),
        parameters: [pathParameter('merchantIdentifier')],
      },
    },
  };
}

/** A merchant's webhook endpoint: its health, and enabling it again. */
function webhookEndpointPaths(): Record<string, object> {
  return {
    '/ops/v1/merchants/{merchantIdentifier}/webhook-endpoint': {
      get: {
        ...operation({
          summary: "A merchant's webhook endpoint health (operator)",
          description:
            'Enabled or disabled (on 410 Gone, or when every attempt failed for WEBHOOK_ENDPOINT_DISABLE_AFTER, default 120h), since when it fails, attempts and successes. Unknown merchant: 404, code 2042.',
          security: [{ operatorToken: [] }],
          in: 'query',
          request: enableEndpointSchema,
          example: {},
          responses: { 200: { description: 'the endpoint health', schema: endpointHealthResponseSchema } },
          errors: [400, 401, 404, 503],
          errorEnvelope: successError,
        }),
        parameters: [pathParameter('merchantIdentifier')],
      },
    },
    '/ops/v1/merchants/{merchantIdentifier}/webhook-endpoint/enable': {
      post: {
        ...operation({
          summary: "Enable a merchant's disabled webhook endpoint again (operator)",
          description:
            'Calls are sent again from now on and its failures are forgotten; deliveries failed while it was disabled are replayed with POST /ops/v1/webhooks/replay or /ops/v1/webhooks/{deliveryId}/replay. No body, or {}. Unknown merchant: 404, code 2042.',
          security: [{ operatorToken: [] }],
          request: enableEndpointSchema,
          example: {},
          bodyOptional: true,
          responses: { 200: { description: 'the endpoint health, enabled', schema: endpointHealthResponseSchema } },
          errors: [400, 401, 404, 413, 415, 503],
          errorEnvelope: successError,
        }),
        parameters: [pathParameter('merchantIdentifier')],
      },
    },
  };
}
