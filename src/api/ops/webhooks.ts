import { ApiError } from '../../domain/api-errors';
import type { AuditAction, AuditDetail } from '../../domain/audit';
import type { WebhookSigningSecret } from '../../domain/merchant';
import type { OperatorIdentity } from '../../domain/operator-token';
import type { WebhookDeliverySummary, WebhookEndpointHealth } from '../../domain/webhook-delivery';
import type { ApiDeps } from '../deps';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation, HttpAnswer } from '../operation';
import {
  enableEndpointSchema,
  listWebhooksQuerySchema,
  replayFailedSchema,
  rotateSigningSecretSchema,
} from '../schemas/webhooks';
import { recordByOperator } from './audit-actor';
import {
  endpointEnableReference,
  endpointHealthReference,
  replayFailedReference,
  replayOneReference,
  signingSecretReference,
  signingSecretRotateReference,
  webhookListReference,
} from './webhooks-openapi';

/* Webhook deliveries (operator): listed with their attempts, replayed one or all failed since a time; a merchant's signing secret and endpoint. */

const MERCHANT = '/ops/v1/merchants/:merchantIdentifier';
const common = { envelope: 'success', auth: operatorToken('merchant-admin') } as const;
type Request = { caller: OperatorIdentity; ip: string | null };
const audit = (
  deps: ApiDeps,
  request: Request,
  action: Extract<AuditAction, 'webhook.replayed' | 'webhook.settings_changed' | 'webhook.secret_rotated' | 'key.revealed'>,
  merchantIdentifier: string | null,
  detail: AuditDetail,
) => recordByOperator(deps, request, action, merchantIdentifier, detail);

/** A delivery as operators read it: no body bytes, every attempt. */
const view = (d: WebhookDeliverySummary) => ({
  deliveryId: d._id,
  merchantIdentifier: d.merchantIdentifier,
  realtime: d.realtime,
  url: d.url,
  state: d.state,
  createdAt: d.createdAt.toISOString(),
  ...(d.replayOf ? { replayOf: d.replayOf } : {}),
  ...(d.failureReason ? { failureReason: d.failureReason } : {}),
  ...(d.supersededBy ? { supersededBy: d.supersededBy } : {}),
  attempts: d.attempts.map((a) => ({ ...a, at: a.at.toISOString() })),
});

export const webhookListOperation = defineOperation({
  ...common,
  method: 'get',
  path: '/ops/v1/webhooks',
  body: { contentType: 'none' },
  query: listWebhooksQuerySchema,
  reference: webhookListReference,
  async handle({ query }, deps) {
    const { limit, ...filter } = query;
    const found = await deps.useCases.ops.listWebhookDeliveries(filter, limit);
    return { success: true, data: found.map(view) };
  },
});

export const replayFailedOperation = defineOperation({
  ...common,
  method: 'post',
  path: '/ops/v1/webhooks/replay',
  body: { contentType: 'application/json', schema: replayFailedSchema },
  reference: replayFailedReference,
  async handle(request, deps) {
    const { body } = request;
    const replayed = await deps.useCases.ops.replayFailedWebhooks(new Date(body.since), body.merchantIdentifier);
    deps.logger.info({ since: body.since, count: replayed.length }, 'failed webhooks replayed');
    await audit(deps, request, 'webhook.replayed', body.merchantIdentifier ?? null, {
      since: body.since,
      count: replayed.length,
    });
    return new HttpAnswer({ success: true, data: { replayed } }, { status: 202 });
  },
});

export const replayOneOperation = defineOperation({
  ...common,
  method: 'post',
  path: '/ops/v1/webhooks/:deliveryId/replay',
  body: { contentType: 'none' },
  reference: replayOneReference,
  async handle(request, deps) {
    const { deliveryId } = request.params;
    const replayId = await deps.useCases.ops.replayWebhook(deliveryId);
    if (!replayId) throw new ApiError('webhookDeliveryNotFound');
    deps.logger.info({ deliveryId, replayId }, 'webhook replayed');
    const replayed = await deps.useCases.ops.findWebhookDelivery(deliveryId);
    await audit(deps, request, 'webhook.replayed', replayed?.merchantIdentifier ?? null, { deliveryId, replayId });
    return new HttpAnswer({ success: true, data: { deliveryId, replayId } }, { status: 202 });
  },
});

const secretsView = (merchantIdentifier: string, secrets: WebhookSigningSecret[]) => ({
  merchantIdentifier,
  secrets: secrets.map((x) => ({
    secret: x.secret,
    createdAt: x.createdAt.toISOString(),
    retiresAt: x.retiresAt?.toISOString() ?? null,
  })),
});

/** Reveals the secret: a read token may not. */
export const signingSecretOperation = defineOperation({
  ...common,
  auth: operatorToken('merchant-admin', 'merchant-admin'),
  method: 'get',
  path: `${MERCHANT}/webhook-signing-secret`,
  body: { contentType: 'none' },
  reference: signingSecretReference,
  async handle(request, deps) {
    const { merchantIdentifier } = request.params;
    const secrets = await deps.useCases.ops.webhookSigningSecrets(merchantIdentifier);
    if (!secrets) throw new ApiError('merchantNotFound');
    await audit(deps, request, 'key.revealed', merchantIdentifier, { key: 'webhook_signing_secret' });
    return { success: true, data: secretsView(merchantIdentifier, secrets) };
  },
});

export const signingSecretRotateOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/webhook-signing-secret/rotate`,
  body: { contentType: 'application/json', schema: rotateSigningSecretSchema },
  reference: signingSecretRotateReference,
  async handle(request, deps) {
    const { merchantIdentifier } = request.params;
    const { overlapSeconds } = request.body;
    const overlapMs = overlapSeconds !== undefined ? overlapSeconds * 1000 : deps.config.webhooks.secretRotationOverlapMs;
    const secrets = await deps.useCases.ops.rotateWebhookSigningSecret(merchantIdentifier, overlapMs);
    if (!secrets) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier, overlapMs }, 'webhook signing secret rotated');
    await audit(deps, request, 'webhook.secret_rotated', merchantIdentifier, { overlapSeconds: overlapMs / 1000 });
    return { success: true, data: secretsView(merchantIdentifier, secrets) };
  },
});

const iso = (d: Date | null) => d?.toISOString() ?? null;
const healthJson = (h: WebhookEndpointHealth) => ({
  ...h,
  disabledAt: iso(h.disabledAt),
  failingSince: iso(h.failingSince),
  lastSuccessAt: iso(h.lastSuccessAt),
  lastFailureAt: iso(h.lastFailureAt),
});

export const endpointHealthOperation = defineOperation({
  ...common,
  method: 'get',
  path: `${MERCHANT}/webhook-endpoint`,
  body: { contentType: 'none' },
  query: enableEndpointSchema,
  reference: endpointHealthReference,
  async handle({ params }, deps) {
    const health = await deps.useCases.ops.webhookEndpointHealth(params.merchantIdentifier);
    if (!health) throw new ApiError('merchantNotFound');
    return { success: true, data: healthJson(health) };
  },
});

/** No query, and no body or an empty JSON object: anything else is refused. */
export const endpointEnableOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/webhook-endpoint/enable`,
  body: { contentType: 'application/json', schema: enableEndpointSchema, optional: true },
  query: enableEndpointSchema,
  reference: endpointEnableReference,
  async handle(request, deps) {
    const { merchantIdentifier } = request.params;
    const health = await deps.useCases.ops.enableWebhookEndpoint(merchantIdentifier);
    if (!health) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier }, 'webhook endpoint enabled');
    await audit(deps, request, 'webhook.settings_changed', merchantIdentifier, { endpoint: 'enabled' });
    return { success: true, data: healthJson(health) };
  },
});

/** In the order the reference lists them. */
export const webhookOperations = [
  webhookListOperation,
  replayFailedOperation,
  replayOneOperation,
  signingSecretOperation,
  signingSecretRotateOperation,
  endpointHealthOperation,
  endpointEnableOperation,
];
