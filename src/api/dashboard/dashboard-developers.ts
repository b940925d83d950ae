import type { ApiDeps } from '../deps';
import { notFoundAnswer } from '../middleware/dashboard-session';
import { HtmlPage, HttpAnswer, Redirect } from '../operation';
import { developersPage } from '../pages/dashboard-developers-page';
import { createApiKeySchema, noBodySchema, revokePreviousSecretKeySchema } from '../schemas/keys';
import { formProblem } from '../schemas/dashboard';
import { dashboardOperation, type DashboardRequest } from './dashboard-operation';
import { staffAudit } from './staff-audit';

/**
 * The Developers page: the same key use cases as the ops API and CLI. Creating an API key and
 * rotating the secret key need the credentials permission (owners: both move money); revoking
 * API keys and the RSA keys need the keys permission.
 */
const NOTICES: Record<string, string> = {
  revoked: 'API key revoked: it is refused from now on.',
  rsa: 'New RSA key: encrypt with it from now on.',
  retired: 'RSA key retired: payerVpa encrypted with it is refused from now on.',
  'previous-secret': 'Previous secret key revoked: only the current secret key is accepted from now on.',
};

/** The page, with a notice or an error, or what was made shown once. */
async function show(
  { caller: { viewer } }: DashboardRequest,
  deps: ApiDeps,
  status: number,
  o: Parameters<typeof developersPage>[2] = {},
): Promise<HtmlPage> {
  const merchant = (await deps.useCases.dashboard.findMerchant(viewer.merchantIdentifier))!;
  const apiKeys = (await deps.useCases.dashboard.listApiKeys(viewer.merchantIdentifier)) ?? [];
  return new HtmlPage(status, developersPage(viewer, { merchant, apiKeys, now: deps.now() }, o));
}

const mid = (r: DashboardRequest) => r.caller.viewer.merchantIdentifier;
/** A form that carries nothing but its CSRF token. */
const emptyForm = (r: DashboardRequest) => noBodySchema.safeParse(r.body).success;
const done = (what: string) => new Redirect(`/dashboard/developers?done=${what}`);
const unexpected = (r: DashboardRequest, deps: ApiDeps) => show(r, deps, 400, { error: 'Unexpected fields in the form.' });

export const developersPageOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/developers',
  handle: (r, deps) => {
    const notice = NOTICES[String(r.query.done)];
    return show(r, deps, 200, notice ? { notice } : {});
  },
});

export const createApiKeyOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/developers/api-keys',
  permission: 'credentials',
  async handle(r, deps) {
    const parsed = createApiKeySchema.safeParse(r.body);
    if (!parsed.success) return show(r, deps, 400, { error: formProblem(parsed.error) });
    const created = (await deps.useCases.dashboard.createApiKey(mid(r), parsed.data.label))!;
    await staffAudit(deps)(r, 'key.created', { kind: 'apiKey', keyId: created.keyId, label: created.label });
    return show(r, deps, 201, { revealed: { kind: 'apiKey', label: created.label, apiKey: created.apiKey } });
  },
});

export const revokeApiKeyOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/developers/api-keys/:keyId/revoke',
  permission: 'keys',
  async handle(r, deps) {
    if (!emptyForm(r)) return unexpected(r, deps);
    if (typeof (await deps.useCases.dashboard.revokeApiKey(mid(r), r.params.keyId)) === 'string') return notFoundAnswer();
    await staffAudit(deps)(r, 'key.revoked', { kind: 'apiKey', keyId: r.params.keyId });
    return done('revoked');
  },
});

export const rotateSecretKeyOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/developers/secret-key/rotate',
  permission: 'credentials',
  async handle(r, deps) {
    if (!emptyForm(r)) return unexpected(r, deps);
    const rotated = (await deps.useCases.dashboard.rotateSecretKey(mid(r)))!;
    await staffAudit(deps)(r, 'key.rotated', {
      kind: 'secretKey',
      previousKeyAcceptedUntil: new Date(rotated.previousKeyAcceptedUntil).toISOString(),
    });
    return show(r, deps, 200, {
      revealed: {
        kind: 'secretKey',
        secretKey: rotated.secretKey,
        previousKeyAcceptedUntil: new Date(rotated.previousKeyAcceptedUntil),
      },
    });
  },
});

export const revokePreviousSecretKeyOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/developers/secret-key/revoke-previous',
  permission: 'credentials',
  async handle(r, deps) {
    const parsed = revokePreviousSecretKeySchema.safeParse(r.body);
    if (!parsed.success) return show(r, deps, 400, { error: formProblem(parsed.error) });
    const at = new Date(parsed.data.previousKeyAcceptedUntil);
    const revoked = await deps.useCases.dashboard.revokePreviousSecretKey(mid(r), at);
    if (revoked === 'unknown') {
      return show(r, deps, 409, {
        error:
          'That previous secret key is no longer the one accepted (the key was rotated again, or its overlap ended): nothing was revoked.',
      });
    }
    await staffAudit(deps)(r, 'key.revoked', { kind: 'previousSecretKey', acceptedUntil: at.toISOString() });
    return done('previous-secret');
  },
});

export const rotateEncryptionKeyOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/developers/encryption-keys/rotate',
  permission: 'keys',
  async handle(r, deps) {
    if (!emptyForm(r)) return unexpected(r, deps);
    const keys = await deps.useCases.dashboard.rotateEncryptionKey(mid(r));
    await staffAudit(deps)(r, 'key.rotated', { kind: 'encryptionKey', keyId: keys?.encryptionKeys[0]?.encryptionKeyId ?? null });
    return done('rsa');
  },
});

export const retireEncryptionKeyOperation = dashboardOperation({
  method: 'post',
  path: '/dashboard/developers/encryption-keys/:keyId/retire',
  permission: 'keys',
  async handle(r, deps) {
    if (!emptyForm(r)) return unexpected(r, deps);
    const result = await deps.useCases.dashboard.retireEncryptionKey(mid(r), r.params.keyId);
    if (result === 'unknown') return notFoundAnswer();
    if (result === 'newest') return show(r, deps, 409, { error: 'The newest RSA key cannot be retired: rotate first.' });
    await staffAudit(deps)(r, 'key.revoked', { kind: 'encryptionKey', keyId: r.params.keyId });
    return done('retired');
  },
});

/** The public key as a file (PEM), for the merchant's code to encrypt payerVpa with. */
export const publicKeyFileOperation = dashboardOperation({
  method: 'get',
  path: '/dashboard/developers/encryption-keys/:file',
  async handle(r, deps) {
    const keyId = /^(.+)\.pem$/.exec(r.params.file)?.[1];
    const merchant = await deps.useCases.dashboard.findMerchant(mid(r));
    const key = merchant?.encryptionKeys.find((k) => k.keyId === keyId);
    if (!key) return notFoundAnswer();
    return new HttpAnswer(key.publicKeyPem, {
      type: 'application/x-pem-file',
      headers: { 'Content-Disposition': `attachment; filename="${key.keyId}.pem"`, 'Cache-Control': 'no-store' },
    });
  },
});

export const developerOperations = [
  developersPageOperation,
  createApiKeyOperation,
  revokeApiKeyOperation,
  rotateSecretKeyOperation,
  revokePreviousSecretKeyOperation,
  rotateEncryptionKeyOperation,
  retireEncryptionKeyOperation,
  publicKeyFileOperation,
];
