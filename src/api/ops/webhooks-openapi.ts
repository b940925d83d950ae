import { EXAMPLE_MERCHANT, pathParameter } from '../reference/examples';
import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';
import {
  listWebhooksResponseSchema,
  replayFailedResponseSchema,
  replayResponseSchema,
  endpointHealthResponseSchema,
  signingSecretsResponseSchema,
} from '../schemas/webhooks';

/* Operator operations on webhook deliveries, a merchant's signing secret and endpoint. */

/** Deliveries listed. */
export const webhookListReference: OperationReference = {
  summary: 'Webhook deliveries with their attempts, newest first (operator)',
  description:
    'Filter by merchant and state (pending, delivered, failed). Each attempt: time, HTTP status, the first 512 bytes of the answer, error, duration.',
  example: { merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier, state: 'failed', limit: '20' },
  responses: { 200: { description: 'the deliveries', schema: listWebhooksResponseSchema } },
  errors: [400, 401, 503],
  errorEnvelope: successError,
};

/** Every failed delivery since a time replayed. */
export const replayFailedReference: OperationReference = {
  summary: 'Replay every failed delivery created since a time (operator)',
  description:
    'Each failed original delivery created at or after `since` (optionally of one merchant), oldest first to the end, is sent again as a replay of the same txnData (id `<original>:replay-<n>`, linked by replayOf); originals whose latest replay is pending or delivered are skipped and replays are never replayed, so the same request repeated starts nothing. Answers the replays this call started.',
  example: { since: '2026-11-23T00:00:00+05:30', merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier },
  responses: { 202: { description: 'the replays started', schema: replayFailedResponseSchema } },
  errors: [400, 401, 413, 415, 503],
  errorEnvelope: successError,
};

/** One delivery sent again. */
export const replayOneReference: OperationReference = {
  summary: 'Send one delivery again (operator)',
  description:
    "A replay (its own id `<original>:replay-<n>`, attempts and schedule) of the original's stored txnData, linked by replayOf and signed with the keys in force. Idempotent: while the latest replay is pending or delivered it is answered and nothing is sent; a replay's id replays its original. Unknown id: 404, code 2044.",
  example: {},
  responses: { 202: { description: 'the replay started', schema: replayResponseSchema } },
  errors: [401, 404, 503],
  errorEnvelope: successError,
  parameters: [pathParameter('deliveryId')],
};

/** A merchant's signing secrets. */
export const signingSecretReference: OperationReference = {
  summary: "A merchant's webhook signing secrets in use (operator)",
  description:
    'The Standard Webhooks secrets (whsec_...) that sign webhook-signature, newest first; during a rotation overlap the replaced one too, with its retiresAt. A merchant without one gets one. Unknown merchant: 404, code 2042.',
  example: {},
  responses: { 200: { description: 'the secrets in use', schema: signingSecretsResponseSchema } },
  errors: [401, 404, 503],
  errorEnvelope: successError,
  parameters: [pathParameter('merchantIdentifier')],
};

/** A merchant's signing secret rotated. */
export const signingSecretRotateReference: OperationReference = {
  summary: "Rotate a merchant's webhook signing secret (operator)",
  description:
    'A new secret signs every attempt from now on; the secrets in use keep signing beside it for the overlap (default WEBHOOK_SECRET_ROTATION_OVERLAP, 24h), so calls carry two signatures meanwhile. Unknown merchant: 404, code 2042.',
  example: { overlapSeconds: 86400 },
  responses: { 200: { description: 'the secrets now in use', schema: signingSecretsResponseSchema } },
  errors: [400, 401, 404, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [pathParameter('merchantIdentifier')],
};

/** A merchant's endpoint health. */
export const endpointHealthReference: OperationReference = {
  summary: "A merchant's webhook endpoint health (operator)",
  description:
    'Enabled or disabled (on 410 Gone, or when every attempt failed for WEBHOOK_ENDPOINT_DISABLE_AFTER, default 120h), since when it fails, attempts and successes. Unknown merchant: 404, code 2042.',
  example: {},
  responses: { 200: { description: 'the endpoint health', schema: endpointHealthResponseSchema } },
  errors: [400, 401, 404, 503],
  errorEnvelope: successError,
  parameters: [pathParameter('merchantIdentifier')],
};

/** A merchant's endpoint enabled again. */
export const endpointEnableReference: OperationReference = {
  summary: "Enable a merchant's disabled webhook endpoint again (operator)",
  description:
    'Calls are sent again from now on and its failures are forgotten; deliveries failed while it was disabled are replayed with POST /ops/v1/webhooks/replay or /ops/v1/webhooks/{deliveryId}/replay. No body, or {}. Unknown merchant: 404, code 2042.',
  example: {},
  bodyOptional: true,
  responses: { 200: { description: 'the endpoint health, enabled', schema: endpointHealthResponseSchema } },
  errors: [400, 401, 404, 413, 415, 503],
  errorEnvelope: successError,
  parameters: [pathParameter('merchantIdentifier')],
};
