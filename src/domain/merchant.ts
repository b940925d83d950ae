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
  webhookFormat: WebhookFormat;
  defaultReturnUrl: string | null;
  /** The RSA keys that decrypt payerVpa (retired ones left out), the newest first: the one to hand out. */
  encryptionKeys: { keyId: string; publicKeyPem: string; createdAt: Date }[];
  createdAt: Date;
}
