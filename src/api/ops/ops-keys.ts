import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { parseDurationList } from '../../domain/durations';
import {
  apiKeyView,
  createApiKey,
  encryptionKeysView,
  listApiKeys,
  retireEncryptionKey,
  revokeApiKey,
  rotateEncryptionKey,
  revokePreviousSecretKey,
  rotateSecretKey,
} from '../../usecases/merchant-keys';
import { auditTrail } from '../../usecases/audit-trail';
import type { ApiDeps } from '../deps';
import { operatorAuth, requireOperatorScope } from '../middleware/operator-auth';
import { operatorActor } from './audit-actor';
import { readJson } from '../middleware/body';
import { createApiKeySchema, noBodySchema, revokePreviousSecretKeySchema, rotateSecretKeySchema } from '../schemas/keys';

/** Operator API on a merchant's keys: the same operations as the dashboard's Developers page. */
export function opsKeyRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1/merchants/:merchantIdentifier' });
  router.use(operatorAuth(deps, 'merchant-admin'));
  const kit = keyRouteKit(deps);
  apiKeyRoutes(router, deps, kit);
  secretKeyRoutes(router, deps, kit);
  encryptionKeyRoutes(router, deps, kit);
  return router;
}

/** The merchant's API keys: listed, created, revoked. */
function apiKeyRoutes(router: Router, deps: ApiDeps, kit: KeyRouteKit): void {
  const { merchantOf, audit, noBody } = kit;
  router.get('/api-keys', async (ctx) => {
    const keys = await listApiKeys(deps.merchants, merchantOf(ctx));
    if (!keys) throw new ApiError('merchantNotFound');
    ctx.body = { success: true, data: { apiKeys: keys.map(apiKeyView) } };
  });

  // An API key or the secret key (answered in full) signs refunds: money, not only merchant admin.
  router.post('/api-keys', requireOperatorScope('money'), async (ctx) => {
    const { body } = await readJson(ctx, createApiKeySchema, deps.config.MAX_BODY_BYTES);
    const created = await createApiKey(deps.merchants, merchantOf(ctx), body.label, deps.now());
    if (!created) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier: merchantOf(ctx), keyId: created.keyId }, 'api key created');
    await audit(ctx, 'key.created', { key: 'api_key', keyId: created.keyId, label: body.label });
    ctx.status = 201;
    ctx.body = { success: true, data: created };
  });

  router.post('/api-keys/:keyId/revoke', async (ctx) => {
    await noBody(ctx);
    const merchantIdentifier = merchantOf(ctx);
    const key = await revokeApiKey(deps.merchants, merchantIdentifier, ctx.params.keyId, deps.now());
    if (typeof key === 'string') throw new ApiError(key);
    deps.logger.info({ merchantIdentifier, keyId: ctx.params.keyId }, 'api key revoked');
    await audit(ctx, 'key.revoked', { key: 'api_key', keyId: ctx.params.keyId });
    ctx.body = { success: true, data: apiKeyView(key) };
  });
}

/** The merchant's secret key: rotated, the previous one revoked. */
function secretKeyRoutes(router: Router, deps: ApiDeps, kit: KeyRouteKit): void {
  const { merchantOf, audit } = kit;
  router.post('/secret-key/rotate', requireOperatorScope('money'), async (ctx) => {
    const body =
      ctx.request.length || ctx.get('transfer-encoding')
        ? (await readJson(ctx, rotateSecretKeySchema, deps.config.MAX_BODY_BYTES)).body
        : {};
    const overlapMs =
      body.overlapSeconds !== undefined
        ? body.overlapSeconds * 1000
        : parseDurationList(deps.config.SECRET_KEY_ROTATION_OVERLAP)[0];
    const rotated = await rotateSecretKey(deps.merchants, merchantOf(ctx), overlapMs, deps.now());
    if (!rotated) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier: merchantOf(ctx), overlapMs }, 'secret key rotated');
    await audit(ctx, 'key.rotated', { key: 'secret_key', overlapSeconds: overlapMs / 1000 });
    ctx.body = { success: true, data: rotated };
  });

  router.post('/secret-key/revoke-previous', async (ctx) => {
    const { body } = await readJson(ctx, revokePreviousSecretKeySchema, deps.config.MAX_BODY_BYTES);
    const revoked = await revokePreviousSecretKey(
      deps.merchants,
      merchantOf(ctx),
      new Date(body.previousKeyAcceptedUntil),
      deps.now(),
    );
    if (!revoked) throw new ApiError('merchantNotFound');
    if (revoked === 'unknown')
      throw new ApiError(
        'keyNotFound',
        `no previous secret key accepted until ${body.previousKeyAcceptedUntil} is still accepted`,
      );
    deps.logger.info({ merchantIdentifier: merchantOf(ctx) }, 'previous secret key revoked');
    await audit(ctx, 'key.revoked', { key: 'previous_secret_key', acceptedUntil: body.previousKeyAcceptedUntil });
    ctx.body = { success: true, data: revoked };
  });
}

/** The merchant's encryption keys: listed, rotated, retired. */
function encryptionKeyRoutes(router: Router, deps: ApiDeps, kit: KeyRouteKit): void {
  const { merchantOf, audit, noBody } = kit;
  router.get('/encryption-keys', async (ctx) => {
    const merchant = await deps.merchants.findById(merchantOf(ctx));
    if (!merchant) throw new ApiError('merchantNotFound');
    ctx.body = { success: true, data: encryptionKeysView(merchant) };
  });

  router.post('/encryption-keys/rotate', async (ctx) => {
    await noBody(ctx);
    const rotated = await rotateEncryptionKey(deps.merchants, merchantOf(ctx), deps.now());
    if (!rotated) throw new ApiError('merchantNotFound');
    deps.logger.info(
      { merchantIdentifier: merchantOf(ctx), encryptionKeyId: rotated.encryptionKeys[0]?.encryptionKeyId },
      'encryption key rotated',
    );
    await audit(ctx, 'key.rotated', { key: 'encryption_key', encryptionKeyId: rotated.encryptionKeys[0]?.encryptionKeyId ?? '' });
    ctx.body = { success: true, data: rotated };
  });

  router.post('/encryption-keys/:keyId/retire', async (ctx) => {
    await noBody(ctx);
    const result = await retireEncryptionKey(deps.merchants, merchantOf(ctx), ctx.params.keyId, deps.now());
    if (result === 'unknown')
      throw new ApiError((await deps.merchants.findById(merchantOf(ctx))) ? 'keyNotFound' : 'merchantNotFound');
    if (result === 'newest') throw new ApiError('validationFailed', 'the newest encryption key cannot be retired: rotate first');
    deps.logger.info({ merchantIdentifier: merchantOf(ctx), encryptionKeyId: ctx.params.keyId }, 'encryption key retired');
    await audit(ctx, 'key.revoked', { key: 'encryption_key', encryptionKeyId: ctx.params.keyId });
    ctx.body = { success: true, data: result };
  });
}

/** What the key routes share: the merchant named in the address, the audit of a change, the empty body. */
function keyRouteKit(deps: ApiDeps) {
  const merchantOf = (ctx: Context) => (ctx.params as Record<string, string>).merchantIdentifier;
  const trail = auditTrail(deps.store.db, deps.now);
  /** Records an operator's change of the merchant's keys, once it is stored (never a key itself). */
  const audit = (ctx: Context, action: 'key.created' | 'key.rotated' | 'key.revoked', detail: Record<string, string | number>) =>
    trail.record(action, operatorActor(ctx), { merchantIdentifier: merchantOf(ctx), from: ctx.ip || null, detail });
  /** No body, or an empty JSON object: anything else is refused. */
  const noBody = async (ctx: Context) => {
    if (ctx.request.length || ctx.get('transfer-encoding')) await readJson(ctx, noBodySchema, deps.config.MAX_BODY_BYTES);
  };
  return { merchantOf, trail, audit, noBody };
}

type KeyRouteKit = ReturnType<typeof keyRouteKit>;
