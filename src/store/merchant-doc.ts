import type { WebhookFormat } from '../domain/merchant';

/** A merchant as stored in `merchants`: every secret sealed (merchant-vault.ts). */
export interface MerchantDoc {
  _id: string;
  name: string;
  webhookUrl: string | null;
  secretKeyEncrypted: string;
  /** After a rotation: the keys replaced, each still verifying checksums until its retiresAt. */
  previousSecretKeys?: { secretKeyEncrypted: string; retiresAt: Date }[];
  apiKeyHash: string;
  /** Newest first after a rotation; `retiredAt` set: it no longer decrypts (absent: in use). */
  encryptionKeys: {
    keyId: string;
    publicKeyPem: string;
    privateKeyEncrypted: string;
    createdAt: Date;
    retiredAt?: Date | null;
  }[];
  autoRefund: boolean;
  /** Opted in to the `settlement.processed` webhook; absent (merchants stored before it existed): off. */
  settlementWebhook?: boolean;
  /** Absent on merchants stored before it existed: form. */
  webhookFormat?: WebhookFormat;
  /**
   * Standard Webhooks signing secrets, newest first, encrypted at rest. One, or during a rotation's
   * overlap the new one and the one it replaces (until its `retiresAt`). Absent on merchants stored
   * before it existed: made on first use.
   */
  webhookSigningSecrets?: StoredSigningSecret[];
  /** Where a hosted checkout sends the payer back when its request names no returnUrl (absent: none). */
  defaultReturnUrl?: string | null;
  createdAt: Date;
  /**
   * Bumped by every change of what a Merchant holds (keys, settings): a process's cached merchant
   * is used only while this is the version it was opened from. Absent (never changed since it
   * existed): 0.
   */
  version?: number;
}

export interface StoredSigningSecret {
  secretEncrypted: string;
  createdAt: Date;
  /** Set when a newer secret replaced it: it is still sent until then. */
  retiresAt: Date | null;
}

export const MERCHANTS = 'merchants';
