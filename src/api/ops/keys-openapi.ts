import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';
import { pathParameter } from '../reference/examples';
import {
  apiKeyCreatedResponseSchema,
  apiKeyListResponseSchema,
  apiKeyResponseSchema,
  encryptionKeysResponseSchema,
  previousSecretKeyRevokedResponseSchema,
  secretKeyRotatedResponseSchema,
} from '../schemas/keys';

const merchantIdentifier = { ...pathParameter('merchantIdentifier'), schema: { type: 'string', pattern: '^[A-Za-z0-9]{6,64}$' } };
const keyId = pathParameter('keyId');

const op = (o: Omit<OperationReference, 'errorEnvelope' | 'parameters'>, parameters: object[]): OperationReference => ({
  ...o,
  errorEnvelope: successError,
  parameters,
});

/* The operator's key operations on a merchant (the dashboard's Developers page does the same). */

/** A merchant's API keys listed. */
export const apiKeyListReference = op(
  {
    summary: "A merchant's API keys (operator): labels, creation, last use, revocation; never the keys",
    description: 'Revoked keys are listed with revokedAt. Unknown merchant: 404, code 2042.',
    example: {},
    responses: { 200: { description: 'the keys, oldest first', schema: apiKeyListResponseSchema } },
    errors: [401, 404, 503],
  },
  [merchantIdentifier],
);

/** An API key created. */
export const apiKeyCreateReference = op(
  {
    summary: 'Another API key for the ledger, bulk and payment link APIs (operator)',
    description:
      'Needs the money scope besides merchant-admin (the key signs refunds): without it 403, code 2019. The key is in this answer only (the store keeps its hash). Every unrevoked key of the merchant is accepted. Unknown merchant: 404, code 2042.',
    example: { label: 'ledger export' },
    responses: { 201: { description: 'the new key, shown once', schema: apiKeyCreatedResponseSchema } },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier],
);

/** An API key revoked. */
export const apiKeyRevokeReference = op(
  {
    summary: 'Revoke an API key (operator): refused from now on, on every replica',
    description:
      'No body, or {}. Revoking a revoked key changes nothing. Unknown merchant: 404, code 2042; unknown key: 404, code 2048.',
    bodyOptional: true,
    example: {},
    responses: { 200: { description: 'the key as it now stands', schema: apiKeyResponseSchema } },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier, keyId],
);

/** The secret key rotated. */
export const secretKeyRotateReference = op(
  {
    summary: 'Rotate the secret key with an overlap (operator)',
    description:
      "Needs the money scope besides merchant-admin (the key signs refunds): without it 403, code 2019. A new secret key signs everything the gateway sends from now on (bulk records, checkout returns, webhooks, QR image addresses). Checksums made with the old key are still accepted by every API that verifies one until the overlap ends (default SECRET_KEY_ROTATION_OVERLAP, 24h), so the merchant's deployment can roll. No body, {} or {overlapSeconds}. Every API replica accepts the new key at once (a checksum its cached keys refuse is checked again against the merchant as stored), and webhook attempts read the key in force from the store. Unknown merchant: 404, code 2042.",
    bodyOptional: true,
    example: { overlapSeconds: 86400 },
    responses: { 200: { description: 'the new key, shown once', schema: secretKeyRotatedResponseSchema } },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier],
);

/** The previous secret key revoked. */
export const previousSecretKeyRevokeReference = op(
  {
    summary: 'Revoke the previous secret key now (operator)',
    description:
      "Ends a rotation's overlap at once (a key that may have leaked): checksums made with the previous secret key are refused from now on. The body names the rotation seen, by its previousKeyAcceptedUntil: when the key was rotated again since, or the overlap is over, nothing is revoked and the answer is 404, code 2048, so a stale request never revokes the key a newer rotation replaced. A rotation racing this call more than a few times answers 503, code 2050 (send it again). Every API replica refuses the key from its next request. Unknown merchant: 404, code 2042.",
    example: { previousKeyAcceptedUntil: '2026-11-27T10:00:00.000Z' },
    responses: {
      200: { description: 'only the current key is accepted from now on', schema: previousSecretKeyRevokedResponseSchema },
    },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier],
);

/** A merchant's encryption keys. */
export const encryptionKeysReference = op(
  {
    summary: "A merchant's RSA public keys for payerVpa (operator)",
    description: 'The keys that still decrypt, newest first. Unknown merchant: 404, code 2042.',
    example: {},
    responses: { 200: { description: 'the keys', schema: encryptionKeysResponseSchema } },
    errors: [401, 404, 503],
  },
  [merchantIdentifier],
);

/** The encryption key rotated. */
export const encryptionKeyRotateReference = op(
  {
    summary: 'A new RSA key for payerVpa (operator)',
    description:
      'A new encryptionKeyId and public key, listed first; the older keys still decrypt until retired. No body, or {}. Unknown merchant: 404, code 2042.',
    bodyOptional: true,
    example: {},
    responses: { 200: { description: 'the keys now in use', schema: encryptionKeysResponseSchema } },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier],
);

/** An encryption key retired. */
export const encryptionKeyRetireReference = op(
  {
    summary: 'Retire an RSA key (operator): payerVpa encrypted with it is refused from now on (2015)',
    description:
      'No body, or {}. The newest key cannot be retired (400, code 2002: rotate first). Unknown merchant: 404, code 2042; unknown key: 404, code 2048.',
    bodyOptional: true,
    example: {},
    responses: { 200: { description: 'the keys still in use', schema: encryptionKeysResponseSchema } },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier, keyId],
);
