import { ApiError } from '../../domain/api-errors';
import type { AuditDetail } from '../../domain/audit';
import type { OperatorIdentity } from '../../domain/operator-token';
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
    const keys = await deps.useCases.ops.listApiKeys(params.merchantIdentifier);
    if (!keys) throw new ApiError('merchantNotFound');
    return { success: true, data: { apiKeys: keys } };
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
    const created = await deps.useCases.ops.createApiKey(merchantIdentifier, request.body.label);
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
    const key = await deps.useCases.ops.revokeApiKey(merchantIdentifier, keyId);
    if (typeof key === 'string') throw new ApiError(key);
    deps.logger.info({ merchantIdentifier, keyId }, 'api key revoked');
    await audit(deps, request, 'key.revoked', { key: 'api_key', keyId });
    return { success: true, data: key };
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
    const overlapMs = overlapSeconds !== undefined ? overlapSeconds * 1000 : deps.config.secrets.secretKeyRotationOverlapMs;
    const rotated = await deps.useCases.ops.rotateSecretKey(merchantIdentifier, overlapMs);
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
    const revoked = await deps.useCases.ops.revokePreviousSecretKey(merchantIdentifier, new Date(until));
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
    const keys = await deps.useCases.ops.encryptionKeys(params.merchantIdentifier);
    if (!keys) throw new ApiError('merchantNotFound');
    return { success: true, data: keys };
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
    const rotated = await deps.useCases.ops.rotateEncryptionKey(merchantIdentifier);
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
    const result = await deps.useCases.ops.retireEncryptionKey(merchantIdentifier, keyId);
    if (result === 'unknown')
      throw new ApiError((await deps.useCases.ops.merchantExists(merchantIdentifier)) ? 'keyNotFound' : 'merchantNotFound');
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
