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
