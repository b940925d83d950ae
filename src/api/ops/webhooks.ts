import type { Context } from 'koa';
import Router from '@koa/router';
import { ApiError } from '../../domain/api-errors';
import { rotateWebhookSigningSecret } from '../../usecases/merchant-keys';
import { replayDelivery, replayFailedSince } from '../../usecases/replay-webhook';
import { auditTrail } from '../../usecases/audit-trail';
import type { ApiDeps } from '../deps';
import { operatorAuth, requireOperatorScope } from '../middleware/operator-auth';
import { operatorActor } from './audit-actor';
import { readJson, validate } from '../middleware/body';
import { parseDurationList } from '../../domain/durations';
import type { WebhookSigningSecret } from '../../domain/merchant';
import {
  enableEndpointSchema,
  listWebhooksQuerySchema,
  replayFailedSchema,
  rotateSigningSecretSchema,
} from '../schemas/webhooks';
import {
  enableEndpoint,
  endpointHealth,
  listDeliveries,
  type WebhookDeliverySummary,
  type WebhookEndpointHealth,
} from '../../usecases/webhook-deliveries';

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
  attempts: d.attempts.map((a) => ({ ...a, at: a.at.toISOString() })),
});

/** Webhook deliveries (operator): list them with their attempts, replay one or all failed since a time. */
export function webhookRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1' });
  router.use(operatorAuth(deps, 'merchant-admin'));
  const kit = webhookRouteKit(deps);
  deliveryRoutes(router, deps, kit);
  signingSecretRoutes(router, deps, kit);
  endpointRoutes(router, deps, kit);
  return router;
}

/** Deliveries: listed and replayed. */
function deliveryRoutes(router: Router, deps: ApiDeps, kit: WebhookRouteKit): void {
  const { replayDeps, audit } = kit;
  router.get('/webhooks', async (ctx) => {
    const query = validate(listWebhooksQuerySchema, { ...ctx.query });
    const { limit, ...filter } = query;
    const found = await listDeliveries(deps, filter, limit);
    ctx.body = { success: true, data: found.map(view) };
  });

  router.post('/webhooks/replay', async (ctx) => {
    const { body } = await readJson(ctx, replayFailedSchema, deps.config.MAX_BODY_BYTES);
    const replayed = await replayFailedSince(replayDeps, new Date(body.since), body.merchantIdentifier);
    deps.logger.info({ since: body.since, count: replayed.length }, 'failed webhooks replayed');
    await audit(ctx, 'webhook.replayed', body.merchantIdentifier ?? null, { since: body.since, count: replayed.length });
    ctx.status = 202;
    ctx.body = { success: true, data: { replayed } };
  });

  router.post('/webhooks/:deliveryId/replay', async (ctx) => {
    const deliveryId = ctx.params.deliveryId;
    const replayId = await replayDelivery(replayDeps, deliveryId);
    if (!replayId) throw new ApiError('webhookDeliveryNotFound');
    deps.logger.info({ deliveryId, replayId }, 'webhook replayed');
    const replayed = await deps.webhooks.findSummary(deliveryId);
    await audit(ctx, 'webhook.replayed', replayed?.merchantIdentifier ?? null, { deliveryId, replayId });
    ctx.status = 202;
    ctx.body = { success: true, data: { deliveryId, replayId } };
  });
}

/** A merchant's webhook signing secret: read and rotated. */
function signingSecretRoutes(router: Router, deps: ApiDeps, kit: WebhookRouteKit): void {
  const { audit, secretsView } = kit;
  // Reveals the secret: a read token may not.
  router.get('/merchants/:merchantIdentifier/webhook-signing-secret', requireOperatorScope('merchant-admin'), async (ctx) => {
    const merchantIdentifier = ctx.params.merchantIdentifier;
    const secrets = await deps.merchants.webhookSigningSecrets(merchantIdentifier, deps.now());
    if (!secrets) throw new ApiError('merchantNotFound');
    await audit(ctx, 'key.revealed', merchantIdentifier, { key: 'webhook_signing_secret' });
    ctx.body = { success: true, data: secretsView(merchantIdentifier, secrets) };
  });

  router.post('/merchants/:merchantIdentifier/webhook-signing-secret/rotate', async (ctx) => {
    const { body } = await readJson(ctx, rotateSigningSecretSchema, deps.config.MAX_BODY_BYTES);
    const merchantIdentifier = ctx.params.merchantIdentifier;
    const overlapMs =
      body.overlapSeconds !== undefined
        ? body.overlapSeconds * 1000
        : parseDurationList(deps.config.WEBHOOK_SECRET_ROTATION_OVERLAP)[0];
    const secrets = await rotateWebhookSigningSecret(deps.merchants, merchantIdentifier, overlapMs, deps.now());
    if (!secrets) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier, overlapMs }, 'webhook signing secret rotated');
    await audit(ctx, 'webhook.secret_rotated', merchantIdentifier, { overlapSeconds: overlapMs / 1000 });
    ctx.body = { success: true, data: secretsView(merchantIdentifier, secrets) };
  });
}

/** A merchant's webhook endpoint: its health, and enabling it again. */
function endpointRoutes(router: Router, deps: ApiDeps, kit: WebhookRouteKit): void {
  const { audit } = kit;
  router.get('/merchants/:merchantIdentifier/webhook-endpoint', async (ctx) => {
    validate(enableEndpointSchema, { ...ctx.query });
    const merchantIdentifier = ctx.params.merchantIdentifier;
    const health = await endpointHealth(deps, merchantIdentifier);
    if (!health) throw new ApiError('merchantNotFound');
    ctx.body = { success: true, data: healthJson(health) };
  });

  router.post('/merchants/:merchantIdentifier/webhook-endpoint/enable', async (ctx) => {
    validate(enableEndpointSchema, { ...ctx.query });
    // No body, or an empty JSON object: anything else is refused.
    if (ctx.request.length || ctx.get('transfer-encoding')) await readJson(ctx, enableEndpointSchema, deps.config.MAX_BODY_BYTES);
    const merchantIdentifier = ctx.params.merchantIdentifier;
    const health = await enableEndpoint(deps, merchantIdentifier);
    if (!health) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier }, 'webhook endpoint enabled');
    await audit(ctx, 'webhook.settings_changed', merchantIdentifier, { endpoint: 'enabled' });
    ctx.body = { success: true, data: healthJson(health) };
  });
}

/** What the operator's webhook routes share: the replay's dependencies, the audit of a change, the secrets' view. */
function webhookRouteKit(deps: ApiDeps) {
  const replayDeps = { webhooks: deps.webhooks, temporal: deps.temporal, taskQueue: deps.config.TEMPORAL_TASK_QUEUE };
  const trail = auditTrail(deps.store.db, deps.now);
  const audit = (
    ctx: Context,
    action: 'webhook.replayed' | 'webhook.settings_changed' | 'webhook.secret_rotated' | 'key.revealed',
    merchantIdentifier: string | null,
    detail: Record<string, string | number>,
  ) => trail.record(action, operatorActor(ctx), { merchantIdentifier, from: ctx.ip || null, detail });

  const secretsView = (merchantIdentifier: string, secrets: WebhookSigningSecret[]) => ({
    merchantIdentifier,
    secrets: secrets.map((x) => ({
      secret: x.secret,
      createdAt: x.createdAt.toISOString(),
      retiresAt: x.retiresAt?.toISOString() ?? null,
    })),
  });
  return { replayDeps, trail, audit, secretsView };
}

type WebhookRouteKit = ReturnType<typeof webhookRouteKit>;

const iso = (d: Date | null) => d?.toISOString() ?? null;
const healthJson = (h: WebhookEndpointHealth) => ({
  ...h,
  disabledAt: iso(h.disabledAt),
  failingSince: iso(h.failingSince),
  lastSuccessAt: iso(h.lastSuccessAt),
  lastFailureAt: iso(h.lastFailureAt),
});
