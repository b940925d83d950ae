import { auditedUrl } from '../../domain/audit';
import { mayDo } from '../../domain/dashboard-roles';
import { merchantSettingsSchema } from '../schemas/ops';
import type { ApiDeps } from '../deps';
import { notFoundAnswer } from '../middleware/dashboard-session';
import { HtmlPage, Redirect } from '../operation';
import { webhooksPage } from '../pages/dashboard-webhooks-page';
import { formProblem, webhookSettingsFormSchema } from '../schemas/dashboard';
import { noBodySchema } from '../schemas/keys';
import { dashboardOperation, type DashboardRequest } from './dashboard-operation';
import { staffAudit } from './staff-audit';

const LOG_SIZE = 50;

const NOTICES: Record<string, string> = {
  saved: 'Webhook settings saved.',
  rotated: 'New signing secret: both secrets sign calls during the overlap.',
  enabled: 'Endpoint enabled: calls are sent again. Replay the deliveries that failed meanwhile.',
  replayed: 'Delivery replayed: it is listed as a new delivery.',
};

const mid = (r: DashboardRequest) => r.caller.viewer.merchantIdentifier;

/** The page, with a notice, an error or what was done. */
async function show(r: DashboardRequest, deps: ApiDeps, status: number, o: Parameters<typeof webhooksPage>[2] = {}) {
  const overview = (await deps.useCases.dashboard.webhookOverview(mid(r), LOG_SIZE))!; // the session's merchant exists
  return new HtmlPage(status, webhooksPage(r.caller.viewer, overview, o));
}

/** A form that carries nothing but its CSRF token. */
const emptyForm = (r: DashboardRequest) => noBodySchema.safeParse(r.body).success;
const unexpected = (r: DashboardRequest, deps: ApiDeps) => show(r, deps, 400, { error: 'Unexpected fields in the form.' });
const done = (what: string) => new Redirect(`/dashboard/webhooks?done=${what}`);

/**
 * The Webhooks page: settings (the ops API's use case and URL check), the signing secret and its
 * rotation, the endpoint's health and re-enabling, a test call, and the delivery log with replay.
 * Changes need the webhooks permission; a delivery of another merchant is 404.
 */
export const webhooksPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/webhooks',
  handle: (r, deps) => show(r, deps, 200, NOTICES[String(r.query.done)] ? { notice: NOTICES[String(r.query.done)] } : {}),
});

export const webhookSettingsOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/webhooks/settings',
  permission: 'webhooks',
  async handle(r, deps) {
    const form = webhookSettingsFormSchema.safeParse(r.body);
    if (!form.success) return show(r, deps, 400, { error: `${formProblem(form.error)} Nothing was changed.` });
    const { webhookUrl, webhookFormat, autoRefund, settlementWebhook } = form.data;
    // Auto-refund moves money, so only a role with the payments permission changes it: for the
    // others the box is shown disabled, not posted, and the merchant's setting stays as it is.
    const mayRefund = mayDo(r.caller.viewer.role, 'payments');
    if (!mayRefund && autoRefund !== undefined)
      return show(r, deps, 403, { error: 'Only an owner changes the auto-refund setting; nothing was changed.' });
    const parsed = merchantSettingsSchema.safeParse({
      webhookUrl: webhookUrl?.trim() ? webhookUrl.trim() : null,
      ...(webhookFormat !== undefined ? { webhookFormat } : {}),
      ...(mayRefund ? { autoRefund: autoRefund === 'on' } : {}),
      settlementWebhook: settlementWebhook === 'on',
    });
    if (!parsed.success)
      return show(r, deps, 400, { error: formProblem(parsed.error), ...(webhookUrl ? { url: webhookUrl } : {}) });
    const refused = parsed.data.webhookUrl ? await deps.useCases.dashboard.refusedWebhookUrl(parsed.data.webhookUrl) : null;
    if (refused) return show(r, deps, 400, { error: `webhookUrl: refused, ${refused}`, url: webhookUrl! });
    await deps.useCases.dashboard.updateWebhookSettings(mid(r), parsed.data);
    await staffAudit(deps)(r, 'webhook.settings_changed', {
      ...parsed.data,
      webhookUrl: auditedUrl(parsed.data.webhookUrl),
    });
    return done('saved');
  },
});

export const rotateSigningSecretOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/webhooks/signing-secret/rotate',
  permission: 'signingSecret',
  async handle(r, deps) {
    if (!emptyForm(r)) return unexpected(r, deps);
    const secrets = await deps.useCases.dashboard.rotateWebhookSigningSecret(mid(r));
    await staffAudit(deps)(r, 'webhook.secret_rotated');
    // Shown in full this once, on this answer only (not behind a redirect a reload would repeat).
    const fresh = secrets?.find((s) => s.retiresAt === null) ?? secrets?.[0];
    return show(r, deps, 200, { notice: NOTICES.rotated, ...(fresh ? { revealed: fresh.secret } : {}) });
  },
});

export const enableEndpointOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/webhooks/endpoint/enable',
  permission: 'webhooks',
  async handle(r, deps) {
    if (!emptyForm(r)) return unexpected(r, deps);
    await deps.useCases.dashboard.enableEndpoint(mid(r));
    await staffAudit(deps)(r, 'webhook.settings_changed', { endpoint: 'enabled' });
    return done('enabled');
  },
});

export const testWebhookOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/webhooks/test',
  permission: 'webhooks',
  async handle(r, deps) {
    if (!emptyForm(r)) return unexpected(r, deps);
    const merchant = (await deps.useCases.dashboard.findMerchant(mid(r)))!;
    const test = await deps.useCases.dashboard.sendTestWebhook(merchant);
    if (!test) return show(r, deps, 409, { error: 'Set a webhook URL first.' });
    return show(r, deps, 200, { test });
  },
});

export const replayDeliveryOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/webhooks/deliveries/:deliveryId/replay',
  permission: 'webhooks',
  async handle(r, deps) {
    if (!emptyForm(r)) return unexpected(r, deps);
    const delivery = await deps.useCases.dashboard.findDelivery(r.params.deliveryId);
    if (!delivery || delivery.merchantIdentifier !== mid(r)) return notFoundAnswer();
    const replayId = await deps.useCases.dashboard.replayDelivery(delivery._id);
    await staffAudit(deps)(r, 'webhook.replayed', { deliveryId: delivery._id, replayId });
    return done('replayed');
  },
});

export const webhookOperations = [
  webhooksPageOperation,
  webhookSettingsOperation,
  rotateSigningSecretOperation,
  enableEndpointOperation,
  testWebhookOperation,
  replayDeliveryOperation,
];
