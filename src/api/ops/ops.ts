import { ApiError } from '../../domain/api-errors';
import { BREAK_GLASS_NAME } from '../../domain/operator-token';
import { InvitationRefusedError } from '../../domain/dashboard-invitation';
import { MerchantIdentifierTakenError } from '../../domain/merchant';
import type { ApiDeps } from '../deps';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation, HttpAnswer } from '../operation';
import { invitationRequestSchema } from '../schemas/dashboard';
import { createMerchantSchema, merchantSettingsSchema } from '../schemas/ops';
import { recordByOperator } from './audit-actor';
import { invitationReference, merchantSettingsReference } from './ops-openapi';
import { provisioningReference } from './provisioning-openapi';

/** Webhook addresses are checked when set (and again when called). */
async function checkWebhookUrl(deps: ApiDeps, url: string | null | undefined): Promise<void> {
  const refused = url ? await deps.useCases.ops.webhookUrlRefusal(url) : null;
  if (refused) throw new ApiError('validationFailed', `webhookUrl: refused, ${refused}`);
}

/** POST /ops/v1/merchants: a merchant provisioned (or imported with its own credentials), its credentials answered once. */
export const provisionOperation = defineOperation({
  method: 'post',
  path: '/ops/v1/merchants',
  envelope: 'success',
  auth: operatorToken('merchant-admin'),
  body: { contentType: 'application/json', schema: createMerchantSchema },
  reference: provisioningReference,
  async handle(request, deps) {
    const { body } = request;
    await checkWebhookUrl(deps, body.webhookUrl);
    const credentials = await deps.useCases.ops.provisionMerchant(body).catch((e: unknown) => {
      throw e instanceof MerchantIdentifierTakenError ? new ApiError('merchantIdentifierTaken') : e;
    });
    deps.logger.info({ merchantIdentifier: credentials.merchantIdentifier }, 'merchant provisioned');
    await recordByOperator(deps, request, 'merchant.created', credentials.merchantIdentifier, { name: body.name });
    return new HttpAnswer({ success: true, data: credentials }, { status: 201 });
  },
});

/** PATCH /ops/v1/merchants/:merchantIdentifier: the merchant's settings, only the fields sent. */
export const merchantSettingsOperation = defineOperation({
  method: 'patch',
  path: '/ops/v1/merchants/:merchantIdentifier',
  envelope: 'success',
  auth: operatorToken('merchant-admin'),
  body: { contentType: 'application/json', schema: merchantSettingsSchema },
  reference: merchantSettingsReference,
  async handle(request, deps) {
    const { body } = request;
    await checkWebhookUrl(deps, body.webhookUrl);
    const updated = await deps.useCases.ops.updateMerchantSettings(request.params.merchantIdentifier, body);
    if (!updated) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier: updated.merchantIdentifier, changed: Object.keys(body) }, 'merchant settings changed');
    await recordByOperator(deps, request, 'merchant.updated', updated.merchantIdentifier, {
      changed: Object.keys(body).join(','),
    });
    return { success: true, data: updated };
  },
});

/** POST /ops/v1/merchants/:merchantIdentifier/invitations: a one-time link to the merchant's dashboard, how its first owner gets in. */
export const invitationOperation = defineOperation({
  method: 'post',
  path: '/ops/v1/merchants/:merchantIdentifier/invitations',
  envelope: 'success',
  auth: operatorToken('merchant-admin'),
  body: { contentType: 'application/json', schema: invitationRequestSchema },
  reference: invitationReference,
  async handle(request, deps) {
    const { body, caller } = request;
    const { merchantIdentifier } = request.params;
    // An operator makes a merchant's first owner. Another owner could change the settlement account
    // with their own password, alone: one operator's way around the second operator (recovery when
    // every owner is locked out is the break-glass token's).
    if (body.role === 'owner' && caller.name !== BREAK_GLASS_NAME && (await deps.useCases.ops.ownerInPlace(merchantIdentifier)))
      throw new ApiError(
        'operatorScopeMissing',
        'the merchant has an owner or an open owner invitation: its owners invite owners (only the break-glass OPS_TOKEN does here)',
      );
    const invitation = await deps.useCases.ops
      .inviteDashboardUser(merchantIdentifier, { ...body, invitedBy: 'operator' })
      .catch((e: unknown) => {
        if (!(e instanceof InvitationRefusedError)) throw e;
        throw e.reason === 'merchantNotFound'
          ? new ApiError('merchantNotFound')
          : new ApiError('validationFailed', 'email: has a dashboard account already');
      });
    deps.logger.info({ merchantIdentifier, role: invitation.role }, 'dashboard invitation created');
    await recordByOperator(deps, request, 'dashboard.user_invited', merchantIdentifier, {
      email: body.email,
      role: invitation.role,
    });
    return new HttpAnswer(
      { success: true, data: { ...invitation, expiresAt: invitation.expiresAt.toISOString() } },
      { status: 201 },
    );
  },
});
