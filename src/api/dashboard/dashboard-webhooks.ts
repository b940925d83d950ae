import Router from '@koa/router';
import type { Context } from 'koa';
import { auditedUrl } from '../../domain/audit';
import { mayDo } from '../../domain/dashboard-roles';
import { merchantSettingsSchema } from '../schemas/ops';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import {
  dashboardSession,
  dashboardState,
  notFoundPage,
  requirePermission,
  signedInRequest,
} from '../middleware/dashboard-session';
import { webhooksPage } from '../pages/dashboard-webhooks-page';
import { formProblem, webhookSettingsFormSchema } from '../schemas/dashboard';
import { noBodySchema } from '../schemas/keys';
import { staffAudit } from './staff-audit';

const LOG_SIZE = 50;

/**
 * The Webhooks page: settings (the ops API's use case and URL check), the signing secret and its
 * rotation, the endpoint's health and re-enabling, a test call, and the delivery log with replay.
 * Changes need the webhooks permission; a delivery of another merchant is 404.
 */
export function dashboardWebhookRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard/webhooks' });
  router.use(dashboardSession(deps));
  const kit = webhookPageKit(deps);
  webhookSettingsRoutes(router, kit);
  webhookDeliveryRoutes(router, kit);
  return router;
}

/** The page, the webhook settings and the signing secret. */
function webhookSettingsRoutes(router: Router, kit: WebhookPageKit): void {
  const { mayChange, uc, mid, audit, show, emptyForm, NOTICES, done } = kit;
  router.get('/', (ctx) => show(ctx, 200, NOTICES[String(ctx.query.done)] ? { notice: NOTICES[String(ctx.query.done)] } : {}));

  router.post('/settings', mayChange, async (ctx) => {
    const form = webhookSettingsFormSchema.safeParse(dashboardState(ctx).form);
    if (!form.success) return show(ctx, 400, { error: `${formProblem(form.error)} Nothing was changed.` });
    const { webhookUrl, webhookFormat, autoRefund, settlementWebhook } = form.data;
    // Auto-refund moves money, so only a role with the payments permission changes it: for the
    // others the box is shown disabled, not posted, and the merchant's setting stays as it is.
    const mayRefund = mayDo(dashboardState(ctx).viewer.role, 'payments');
    if (!mayRefund && autoRefund !== undefined)
      return show(ctx, 403, { error: 'Only an owner changes the auto-refund setting; nothing was changed.' });
    const parsed = merchantSettingsSchema.safeParse({
      webhookUrl: webhookUrl?.trim() ? webhookUrl.trim() : null,
      ...(webhookFormat !== undefined ? { webhookFormat } : {}),
      ...(mayRefund ? { autoRefund: autoRefund === 'on' } : {}),
      settlementWebhook: settlementWebhook === 'on',
    });
    if (!parsed.success) return show(ctx, 400, { error: formProblem(parsed.error), ...(webhookUrl ? { url: webhookUrl } : {}) });
    const refused = parsed.data.webhookUrl ? await uc.refusedWebhookUrl(parsed.data.webhookUrl) : null;
    if (refused) return show(ctx, 400, { error: `webhookUrl: refused, ${refused}`, url: webhookUrl! });
    await uc.updateWebhookSettings(mid(ctx), parsed.data);
    await audit(signedInRequest(ctx), 'webhook.settings_changed', {
      ...parsed.data,
      webhookUrl: auditedUrl(parsed.data.webhookUrl),
    });
    done(ctx, 'saved');
  });

  router.post('/signing-secret/rotate', requirePermission('signingSecret'), async (ctx) => {
    if (!emptyForm(ctx)) return show(ctx, 400, { error: 'Unexpected fields in the form.' });
    const secrets = await uc.rotateWebhookSigningSecret(mid(ctx));
    await audit(signedInRequest(ctx), 'webhook.secret_rotated');
    // Shown in full this once, on this answer only (not behind a redirect a reload would repeat).
    const fresh = secrets?.find((s) => s.retiresAt === null) ?? secrets?.[0];
    await show(ctx, 200, { notice: NOTICES.rotated, ...(fresh ? { revealed: fresh.secret } : {}) });
  });
}

/** The endpoint enabled again, a test call and a delivery replayed. */
function webhookDeliveryRoutes(router: Router, kit: WebhookPageKit): void {
  const { mayChange, uc, mid, audit, show, emptyForm, done } = kit;
  router.post('/endpoint/enable', mayChange, async (ctx) => {
    if (!emptyForm(ctx)) return show(ctx, 400, { error: 'Unexpected fields in the form.' });
    await uc.enableEndpoint(mid(ctx));
    await audit(signedInRequest(ctx), 'webhook.settings_changed', { endpoint: 'enabled' });
    done(ctx, 'enabled');
  });

  router.post('/test', mayChange, async (ctx) => {
    if (!emptyForm(ctx)) return show(ctx, 400, { error: 'Unexpected fields in the form.' });
    const merchant = (await uc.findMerchant(mid(ctx)))!;
    const test = await uc.sendTestWebhook(merchant);
    if (!test) return show(ctx, 409, { error: 'Set a webhook URL first.' });
    await show(ctx, 200, { test });
  });

  router.post('/deliveries/:deliveryId/replay', mayChange, async (ctx) => {
    if (!emptyForm(ctx)) return show(ctx, 400, { error: 'Unexpected fields in the form.' });
    const delivery = await uc.findDelivery(ctx.params.deliveryId);
    if (!delivery || delivery.merchantIdentifier !== mid(ctx)) return notFoundPage(ctx);
    const replayId = await uc.replayDelivery(delivery._id);
    await audit(signedInRequest(ctx), 'webhook.replayed', { deliveryId: delivery._id, replayId });
    done(ctx, 'replayed');
  });
}

/** What the webhook page's routes share: the page shown, the permission, the notices and the audit. */
function webhookPageKit(deps: ApiDeps) {
  const mayChange = requirePermission('webhooks');
  const uc = deps.useCases.dashboard;
  const mid = (ctx: Context) => dashboardState(ctx).viewer.merchantIdentifier;
  const audit = staffAudit(deps);

  const show = async (ctx: Context, status: number, o: Parameters<typeof webhooksPage>[2] = {}) => {
    const overview = (await uc.webhookOverview(mid(ctx), LOG_SIZE))!; // the session's merchant exists
    sendPage(ctx, status, webhooksPage(dashboardState(ctx).viewer, overview, o));
  };
  const emptyForm = (ctx: Context) => noBodySchema.safeParse(dashboardState(ctx).form).success;
  const NOTICES: Record<string, string> = {
    saved: 'Webhook settings saved.',
    rotated: 'New signing secret: both secrets sign calls during the overlap.',
    enabled: 'Endpoint enabled: calls are sent again. Replay the deliveries that failed meanwhile.',
    replayed: 'Delivery replayed: it is listed as a new delivery.',
  };
  const done = (ctx: Context, what: string) => {
    ctx.status = 303;
    ctx.redirect(`/dashboard/webhooks?done=${what}`);
  };
  return { mayChange, uc, mid, audit, show, emptyForm, NOTICES, done };
}

type WebhookPageKit = ReturnType<typeof webhookPageKit>;
