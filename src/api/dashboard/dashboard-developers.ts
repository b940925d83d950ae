import Router from '@koa/router';
import type { Context } from 'koa';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import { dashboardSession, dashboardState, notFoundPage, requirePermission } from '../middleware/dashboard-session';
import { developersPage } from '../pages/dashboard-developers-page';
import { createApiKeySchema, noBodySchema, revokePreviousSecretKeySchema } from '../schemas/keys';
import { formProblem } from '../schemas/dashboard';
import { staffAudit } from './staff-audit';

/**
 * The Developers page: the same key use cases as the ops API and CLI. Creating an API key and
 * rotating the secret key need the credentials permission (owners: both move money); revoking
 * API keys and the RSA keys need the keys permission.
 */
export function dashboardDeveloperRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/dashboard/developers' });
  router.use(dashboardSession(deps));
  const kit = developersPageKit(deps);
  apiKeyPageRoutes(router, deps, kit);
  secretKeyPageRoutes(router, deps, kit);
  encryptionKeyPageRoutes(router, deps, kit);
  return router;
}

/** The page and the API keys: created and revoked. */
function apiKeyPageRoutes(router: Router, deps: ApiDeps, kit: DevelopersPageKit): void {
  const { mayChange, mayHoldCredentials, show, mid, audit, emptyForm, done, NOTICES } = kit;
  router.get('/', (ctx) =>
    show(ctx, 200, { ...(NOTICES[String(ctx.query.done)] ? { notice: NOTICES[String(ctx.query.done)] } : {}) }),
  );

  router.post('/api-keys', mayHoldCredentials, async (ctx) => {
    const parsed = createApiKeySchema.safeParse(dashboardState(ctx).form);
    if (!parsed.success) return show(ctx, 400, { error: formProblem(parsed.error) });
    const created = (await deps.useCases.dashboard.createApiKey(mid(ctx), parsed.data.label))!;
    await audit(ctx, 'key.created', { kind: 'apiKey', keyId: created.keyId, label: created.label });
    await show(ctx, 201, { revealed: { kind: 'apiKey', label: created.label, apiKey: created.apiKey } });
  });

  router.post('/api-keys/:keyId/revoke', mayChange, async (ctx) => {
    if (!emptyForm(ctx)) return show(ctx, 400, { error: 'Unexpected fields in the form.' });
    if (typeof (await deps.useCases.dashboard.revokeApiKey(mid(ctx), ctx.params.keyId)) === 'string')
      return notFoundPage(ctx);
    await audit(ctx, 'key.revoked', { kind: 'apiKey', keyId: ctx.params.keyId });
    done(ctx, 'revoked');
  });
}

/** The secret key: rotated, the previous one revoked. */
function secretKeyPageRoutes(router: Router, deps: ApiDeps, kit: DevelopersPageKit): void {
  const { mayHoldCredentials, show, mid, audit, emptyForm, done } = kit;
  router.post('/secret-key/rotate', mayHoldCredentials, async (ctx) => {
    if (!emptyForm(ctx)) return show(ctx, 400, { error: 'Unexpected fields in the form.' });
    const rotated = (await deps.useCases.dashboard.rotateSecretKey(mid(ctx)))!;
    await audit(ctx, 'key.rotated', {
      kind: 'secretKey',
      previousKeyAcceptedUntil: new Date(rotated.previousKeyAcceptedUntil).toISOString(),
    });
    await show(ctx, 200, {
      revealed: {
        kind: 'secretKey',
        secretKey: rotated.secretKey,
        previousKeyAcceptedUntil: new Date(rotated.previousKeyAcceptedUntil),
      },
    });
  });

  router.post('/secret-key/revoke-previous', mayHoldCredentials, async (ctx) => {
    const parsed = revokePreviousSecretKeySchema.safeParse(dashboardState(ctx).form);
    if (!parsed.success) return show(ctx, 400, { error: formProblem(parsed.error) });
    const at = new Date(parsed.data.previousKeyAcceptedUntil);
    const revoked = await deps.useCases.dashboard.revokePreviousSecretKey(mid(ctx), at);
    if (revoked === 'unknown') {
      return show(ctx, 409, {
        error:
          'That previous secret key is no longer the one accepted (the key was rotated again, or its overlap ended): nothing was revoked.',
      });
    }
    await audit(ctx, 'key.revoked', { kind: 'previousSecretKey', acceptedUntil: at.toISOString() });
    done(ctx, 'previous-secret');
  });
}

/** The encryption keys: rotated, retired, and the public key as a file. */
function encryptionKeyPageRoutes(router: Router, deps: ApiDeps, kit: DevelopersPageKit): void {
  const { mayChange, show, mid, audit, emptyForm, done } = kit;
  router.post('/encryption-keys/rotate', mayChange, async (ctx) => {
    if (!emptyForm(ctx)) return show(ctx, 400, { error: 'Unexpected fields in the form.' });
    const keys = await deps.useCases.dashboard.rotateEncryptionKey(mid(ctx));
    await audit(ctx, 'key.rotated', { kind: 'encryptionKey', keyId: keys?.encryptionKeys[0]?.encryptionKeyId ?? null });
    done(ctx, 'rsa');
  });

  router.post('/encryption-keys/:keyId/retire', mayChange, async (ctx) => {
    if (!emptyForm(ctx)) return show(ctx, 400, { error: 'Unexpected fields in the form.' });
    const result = await deps.useCases.dashboard.retireEncryptionKey(mid(ctx), ctx.params.keyId);
    if (result === 'unknown') return notFoundPage(ctx);
    if (result === 'newest') return show(ctx, 409, { error: 'The newest RSA key cannot be retired: rotate first.' });
    await audit(ctx, 'key.revoked', { kind: 'encryptionKey', keyId: ctx.params.keyId });
    done(ctx, 'retired');
  });

  /** The public key as a file (PEM), for the merchant's code to encrypt payerVpa with. */
  router.get('/encryption-keys/:file', async (ctx) => {
    const keyId = /^(.+)\.pem$/.exec(ctx.params.file)?.[1];
    const merchant = await deps.useCases.dashboard.findMerchant(mid(ctx));
    const key = merchant?.encryptionKeys.find((k) => k.keyId === keyId);
    if (!key) return notFoundPage(ctx);
    ctx.type = 'application/x-pem-file';
    ctx.set('Content-Disposition', `attachment; filename="${key.keyId}.pem"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = key.publicKeyPem;
  });
}

/** What the Developers page's routes share: the page shown, the permissions, the notices and the audit. */
function developersPageKit(deps: ApiDeps) {
  const mayChange = requirePermission('keys');
  const mayHoldCredentials = requirePermission('credentials');

  const show = async (ctx: Context, status: number, o: Parameters<typeof developersPage>[2] = {}) => {
    const { viewer } = dashboardState(ctx);
    const merchant = (await deps.useCases.dashboard.findMerchant(viewer.merchantIdentifier))!;
    const apiKeys = (await deps.useCases.dashboard.listApiKeys(viewer.merchantIdentifier)) ?? [];
    sendPage(ctx, status, developersPage(viewer, { merchant, apiKeys, now: deps.now() }, o));
  };
  const mid = (ctx: Context) => dashboardState(ctx).viewer.merchantIdentifier;
  const audit = staffAudit(deps);
  /** A form that carries nothing but its CSRF token. */
  const emptyForm = (ctx: Context) => noBodySchema.safeParse(dashboardState(ctx).form).success;
  const done = (ctx: Context, what: string) => {
    ctx.status = 303;
    ctx.redirect(`/dashboard/developers?done=${what}`);
  };
  const NOTICES: Record<string, string> = {
    revoked: 'API key revoked: it is refused from now on.',
    rsa: 'New RSA key: encrypt with it from now on.',
    retired: 'RSA key retired: payerVpa encrypted with it is refused from now on.',
    'previous-secret': 'Previous secret key revoked: only the current secret key is accepted from now on.',
  };
  return { mayChange, mayHoldCredentials, show, mid, audit, emptyForm, done, NOTICES };
}

type DevelopersPageKit = ReturnType<typeof developersPageKit>;
