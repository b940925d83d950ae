import { ApiError } from '../../domain/api-errors';
import type { AuditDetail } from '../../domain/audit';
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
import type { OperatorIdentity } from '../../usecases/operator-tokens';
import type { ApiDeps } from '../deps';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation, HttpAnswer } from '../operation';
import { createApiKeySchema, noBodySchema, revokePreviousSecretKeySchema, rotateSecretKeySchema } from '../schemas/keys';
import { recordByOperator } from './audit-actor';
import {
  apiKeyCreateReference,
  apiKeyListReference,
  apiKeyRevokeReference,
  encryptionKeyRetireReference,
  encryptionKeyRotateReference,
  encryptionKeysReference,
  previousSecretKeyRevokeReference,
  secretKeyRotateReference,
} from './keys-openapi';

/* Operator API on a merchant's keys: the same operations as the dashboard's Developers page. */

const MERCHANT = '/ops/v1/merchants/:merchantIdentifier';
const common = { envelope: 'success', auth: operatorToken('merchant-admin') } as const;
/** No body, or an empty JSON object: anything else is refused. */
const noBody = { contentType: 'application/json', schema: noBodySchema, optional: true } as const;
type KeyRequest = { caller: OperatorIdentity; ip: string | null; params: Record<string, string> };

/** Records an operator's change of the merchant's keys, once it is stored (never a key itself). */
const audit = (deps: ApiDeps, request: KeyRequest, action: 'key.created' | 'key.rotated' | 'key.revoked', detail: AuditDetail) =>
  recordByOperator(deps, request, action, request.params.merchantIdentifier, detail);

export const apiKeyListOperation = defineOperation({
  ...common,
  method: 'get',
  path: `${MERCHANT}/api-keys`,
  body: { contentType: 'none' },
  reference: apiKeyListReference,
  async handle({ params }, deps) {
    const keys = await listApiKeys(deps.merchants, params.merchantIdentifier);
    if (!keys) throw new ApiError('merchantNotFound');
    return { success: true, data: { apiKeys: keys.map(apiKeyView) } };
  },
});

/** An API key or the secret key (answered in full) signs refunds: money, not only merchant admin. */
export const apiKeyCreateOperation = defineOperation({
  ...common,
  auth: operatorToken('merchant-admin', 'money'),
  method: 'post',
  path: `${MERCHANT}/api-keys`,
  body: { contentType: 'application/json', schema: createApiKeySchema },
  reference: apiKeyCreateReference,
  async handle(request, deps) {
    const { merchantIdentifier } = request.params;
    const created = await createApiKey(deps.merchants, merchantIdentifier, request.body.label, deps.now());
    if (!created) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier, keyId: created.keyId }, 'api key created');
    await audit(deps, request, 'key.created', { key: 'api_key', keyId: created.keyId, label: request.body.label });
    return new HttpAnswer({ success: true, data: created }, { status: 201 });
  },
});

export const apiKeyRevokeOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/api-keys/:keyId/revoke`,
  body: noBody,
  reference: apiKeyRevokeReference,
  async handle(request, deps) {
    const { merchantIdentifier, keyId } = request.params;
    const key = await revokeApiKey(deps.merchants, merchantIdentifier, keyId, deps.now());
    if (typeof key === 'string') throw new ApiError(key);
    deps.logger.info({ merchantIdentifier, keyId }, 'api key revoked');
    await audit(deps, request, 'key.revoked', { key: 'api_key', keyId });
    return { success: true, data: apiKeyView(key) };
  },
});

export const secretKeyRotateOperation = defineOperation({
  ...common,
  auth: operatorToken('merchant-admin', 'money'),
  method: 'post',
  path: `${MERCHANT}/secret-key/rotate`,
  body: { contentType: 'application/json', schema: rotateSecretKeySchema, optional: true },
  reference: secretKeyRotateReference,
  async handle(request, deps) {
    const { merchantIdentifier } = request.params;
    const { overlapSeconds } = request.body;
    const overlapMs =
      overlapSeconds !== undefined ? overlapSeconds * 1000 : parseDurationList(deps.config.SECRET_KEY_ROTATION_OVERLAP)[0];
    const rotated = await rotateSecretKey(deps.merchants, merchantIdentifier, overlapMs, deps.now());
    if (!rotated) throw new ApiError('merchantNotFound');
    deps.logger.info({ merchantIdentifier, overlapMs }, 'secret key rotated');
    await audit(deps, request, 'key.rotated', { key: 'secret_key', overlapSeconds: overlapMs / 1000 });
    return { success: true, data: rotated };
  },
});

export const previousSecretKeyRevokeOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/secret-key/revoke-previous`,
  body: { contentType: 'application/json', schema: revokePreviousSecretKeySchema },
  reference: previousSecretKeyRevokeReference,
  async handle(request, deps) {
    const { merchantIdentifier } = request.params;
    const until = request.body.previousKeyAcceptedUntil;
    const revoked = await revokePreviousSecretKey(deps.merchants, merchantIdentifier, new Date(until), deps.now());
    if (!revoked) throw new ApiError('merchantNotFound');
    if (revoked === 'unknown')
      throw new ApiError('keyNotFound', `no previous secret key accepted until ${until} is still accepted`);
    deps.logger.info({ merchantIdentifier }, 'previous secret key revoked');
    await audit(deps, request, 'key.revoked', { key: 'previous_secret_key', acceptedUntil: until });
    return { success: true, data: revoked };
  },
});

export const encryptionKeysOperation = defineOperation({
  ...common,
  method: 'get',
  path: `${MERCHANT}/encryption-keys`,
  body: { contentType: 'none' },
  reference: encryptionKeysReference,
  async handle({ params }, deps) {
    const merchant = await deps.merchants.findById(params.merchantIdentifier);
    if (!merchant) throw new ApiError('merchantNotFound');
    return { success: true, data: encryptionKeysView(merchant) };
  },
});

export const encryptionKeyRotateOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/encryption-keys/rotate`,
  body: noBody,
  reference: encryptionKeyRotateReference,
  async handle(request, deps) {
    const { merchantIdentifier } = request.params;
    const rotated = await rotateEncryptionKey(deps.merchants, merchantIdentifier, deps.now());
    if (!rotated) throw new ApiError('merchantNotFound');
    const encryptionKeyId = rotated.encryptionKeys[0]?.encryptionKeyId;
    deps.logger.info({ merchantIdentifier, encryptionKeyId }, 'encryption key rotated');
    await audit(deps, request, 'key.rotated', { key: 'encryption_key', encryptionKeyId: encryptionKeyId ?? '' });
    return { success: true, data: rotated };
  },
});

export const encryptionKeyRetireOperation = defineOperation({
  ...common,
  method: 'post',
  path: `${MERCHANT}/encryption-keys/:keyId/retire`,
  body: noBody,
  reference: encryptionKeyRetireReference,
  async handle(request, deps) {
    const { merchantIdentifier, keyId } = request.params;
    const result = await retireEncryptionKey(deps.merchants, merchantIdentifier, keyId, deps.now());
    if (result === 'unknown')
      throw new ApiError((await deps.merchants.findById(merchantIdentifier)) ? 'keyNotFound' : 'merchantNotFound');
    if (result === 'newest') throw new ApiError('validationFailed', 'the newest encryption key cannot be retired: rotate first');
    deps.logger.info({ merchantIdentifier, encryptionKeyId: keyId }, 'encryption key retired');
    await audit(deps, request, 'key.revoked', { key: 'encryption_key', encryptionKeyId: keyId });
    return { success: true, data: result };
  },
});

/** In the order the reference lists them. */
export const keyOperations = [
  apiKeyListOperation,
  apiKeyCreateOperation,
  apiKeyRevokeOperation,
  secretKeyRotateOperation,
  previousSecretKeyRevokeOperation,
  encryptionKeysOperation,
  encryptionKeyRotateOperation,
  encryptionKeyRetireOperation,
];
