import Router from '@koa/router';
import { MerchantIdentifierTakenError, provisionMerchant } from '../../usecases/provision-merchant';
import { auditTrail } from '../../usecases/audit-trail';
import type { ApiDeps } from '../deps';
import { operatorAuth } from '../middleware/operator-auth';
import { operatorActor } from './audit-actor';
import { readJson } from '../middleware/body';
import { createMerchantSchema, merchantSettingsSchema } from '../schemas/ops';
import { invitationRequestSchema } from '../schemas/dashboard';
import { createInvitation, InvitationRefusedError, ownerInPlace } from '../../usecases/dashboard-invitations';
import { BREAK_GLASS_NAME } from '../../domain/operator-token';
import { ApiError } from '../../domain/api-errors';
import { updateMerchant } from '../../usecases/update-merchant';
import { refusedWebhookUrl, webhookAddressPolicy } from '../../usecases/check-webhook-url';

/** Operator API behind the bearer token: merchant provisioning and settings. */
export function opsRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1' });
  router.use(operatorAuth(deps, 'merchant-admin'));
  const policy = webhookAddressPolicy(deps.config);
  const trail = auditTrail(deps.store.db, deps.now);
  /** Webhook addresses are checked when set (and again when called). */
  const checkWebhookUrl = async (url: string | null | undefined) => {
    const refused = url ? await refusedWebhookUrl(url, policy) : null;
    if (refused) throw new ApiError('validationFailed', `webhookUrl: refused, ${refused}`);
  };
  router.post('/merchants', async (ctx) => {
    const { body } = await readJson(ctx, createMerchantSchema, deps.config.MAX_BODY_BYTES);
    await checkWebhookUrl(body.webhookUrl);
    const credentials = await provisionMerchant(deps.merchants, body, deps.now()).catch((e: unknown) => {
      throw e instanceof MerchantIdentifierTakenError ? new ApiError('merchantIdentifierTaken') : e;
    });
    deps.logger.info({ merchantIdentifier: credentials.merchantIdentifier }, 'merchant provisioned');
    await trail.record('merchant.created', operatorActor(ctx), {
      merchantIdentifier: credentials.merchantIdentifier,
      from: ctx.ip || null,
      detail: { name: body.name },
    });
    ctx.status = 201;
    ctx.body = { success: true, data: credentials };
  });
  router.patch('/merchants/:merchantIdentifier', async (ctx) => {
    const { body } = await readJson(ctx, merchantSettingsSchema, deps.config.MAX_BODY_BYTES);
    await checkWebhookUrl(body.webhookUrl);
    const updated = await updateMerchant(deps.merchants, ctx.params.merchantIdentifier, body);
    if (!updated) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier: updated.merchantIdentifier, changed: Object.keys(body) }, 'merchant settings changed');
    await trail.record('merchant.updated', operatorActor(ctx), {
      merchantIdentifier: updated.merchantIdentifier,
      from: ctx.ip || null,
      detail: { changed: Object.keys(body).join(',') },
    });
    ctx.body = { success: true, data: updated };
  });
  /** A one-time link to the merchant's dashboard: how a merchant's first owner gets in. */
  router.post('/merchants/:merchantIdentifier/invitations', async (ctx) => {
    const { body } = await readJson(ctx, invitationRequestSchema, deps.config.MAX_BODY_BYTES);
    // An operator makes a merchant's first owner. Another owner could change the settlement account
    // with their own password, alone: one operator's way around the second operator (recovery when
    // every owner is locked out is the break-glass token's).
    if (
      body.role === 'owner' &&
      ctx.state.operatorName !== BREAK_GLASS_NAME &&
      (await ownerInPlace(deps, ctx.params.merchantIdentifier))
    )
      throw new ApiError(
        'operatorScopeMissing',
        'the merchant has an owner or an open owner invitation: its owners invite owners (only the break-glass OPS_TOKEN does here)',
      );
    const invitation = await createInvitation(
      { ...deps, publicBaseUrl: deps.config.PUBLIC_BASE_URL, invitationHours: deps.config.DASHBOARD_INVITATION_HOURS },
      ctx.params.merchantIdentifier,
      { ...body, invitedBy: 'operator' },
    ).catch((e: unknown) => {
      if (!(e instanceof InvitationRefusedError)) throw e;
      throw e.reason === 'merchantNotFound'
        ? new ApiError('merchantNotFound')
        : new ApiError('validationFailed', 'email: has a dashboard account already');
    });
    deps.logger.info(
      { merchantIdentifier: ctx.params.merchantIdentifier, role: invitation.role },
      'dashboard invitation created',
    );
    await trail.record('dashboard.user_invited', operatorActor(ctx), {
      merchantIdentifier: ctx.params.merchantIdentifier,
      from: ctx.ip || null,
      detail: { email: body.email, role: invitation.role },
    });
    ctx.status = 201;
    ctx.body = { success: true, data: { ...invitation, expiresAt: invitation.expiresAt.toISOString() } };
  });
  return router;
}
