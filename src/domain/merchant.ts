/** How a merchant's webhooks are posted: a form field `txnData`, or a JSON body. */
export type WebhookFormat = 'form' | 'json';

/** A merchant as the API and workers use it: secrets decrypted in memory only. */
export interface Merchant {
  merchantIdentifier: string;
  name: string;
  webhookUrl: string | null;
  secretKey: string;
  /** During a secret key rotation's overlap: the replaced key(s), accepted until retiresAt (secretKeysAt). */
  previousSecretKeys: { secretKey: string; retiresAt: Date }[];
  autoRefund: boolean;
  /** Opted in to the `settlement.processed` webhook (off by default). */
  settlementWebhook: boolean;
  webhookFormat: WebhookFormat;
  defaultReturnUrl: string | null;
  /** The RSA keys that decrypt payerVpa (retired ones left out), the newest first: the one to hand out. */
  encryptionKeys: { keyId: string; publicKeyPem: string; createdAt: Date }[];
  createdAt: Date;
}

/** A webhook signing secret as operators see it. */
export interface WebhookSigningSecret {
  secret: string;
  createdAt: Date;
  retiresAt: Date | null;
}

/** An API key as its merchant sees it: never the key, only its id (a prefix of its hash) and label. */
export interface ApiKeyInfo {
  keyId: string;
  label: string;
  createdAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The public id of a key: the first 16 hex digits of its SHA-256 (no secret, and no extra field to backfill). */
export const apiKeyId = (apiKeyHash: string) => `ak_${apiKeyHash.slice(0, 16)}`;

/** What an operator may change on a merchant. */
export interface MerchantSettings {
  webhookUrl?: string | null;
  webhookFormat?: WebhookFormat;
  autoRefund?: boolean;
  settlementWebhook?: boolean;
  defaultReturnUrl?: string | null;
}

/** The merchant's settings as the operator API and CLI show them (never its secrets). */
export type MerchantSettingsView = Pick<
  Merchant,
  'merchantIdentifier' | 'name' | 'webhookUrl' | 'webhookFormat' | 'autoRefund' | 'settlementWebhook' | 'defaultReturnUrl'
>;

/** A merchant to provision: new keys, or (imported) its own identifier and secret key. */
export interface MerchantToProvision {
  name: string;
  webhookUrl?: string | null;
  merchantIdentifier?: string;
  secretKey?: string;
}

/** What provisioning hands the merchant, once: the API key and secret are not shown again. */
export interface MerchantCredentials {
  merchantIdentifier: string;
  secretKey: string;
  apiKey: string;
  encryptionKeyId: string;
  publicKeyPem: string;
}

/** Provisioning (or importing) under an identifier another merchant has: nothing is stored. */
export class MerchantIdentifierTakenError extends Error {
  override readonly name = 'MerchantIdentifierTakenError';
}

/** An API key as the ops API and the dashboard list it. */
export interface ApiKeyView {
  keyId: string;
  label: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A new API key: the key itself is in this answer only. */
export type IssuedApiKey = ApiKeyView & { apiKey: string };

/** A new secret key, and until when the one it replaced is still accepted. */
export interface SecretKeyRotated {
  merchantIdentifier: string;
  secretKey: string;
  previousKeyAcceptedUntil: string;
}

export interface PreviousSecretKeyRevoked {
  merchantIdentifier: string;
  previousKeyRevokedAt: string;
}

/** The merchant's payerVpa encryption keys, the newest first: the one to encrypt with. */
export interface EncryptionKeysView {
  merchantIdentifier: string;
  encryptionKeys: { encryptionKeyId: string; publicKeyPem: string; createdAt: string }[];
}
