import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { derivedKey } from './secrets';

/** Which stored value a sealed payer field is: AES-GCM associated data, so it opens nowhere else. */
export interface PayerFieldContext {
  merchantIdentifier: string;
  /** e.g. `instrument`, `payerVpa`, `body`, `buyer`, `customerMobile`, `plan`, `bankid` */
  field: string;
  /** The `_id` of the document holding it. */
  documentId: string;
}

const VERSION = 'pd1';
const associatedData = (c: PayerFieldContext) =>
  Buffer.from(JSON.stringify([c.merchantIdentifier, c.field, c.documentId]), 'utf8');

/**
 * Payer data at rest (VPAs, masked cards, card ids, webhook bodies carrying them): AES-256-GCM under
 * the `payer-data-at-rest` key derived from MASTER_KEY, bound to merchant, field and document, so a
 * value copied to another merchant or document does not open. Stored form `pd1.<iv>.<tag>.<ct>`
 * (base64url parts). What queries need is kept as a keyed hash under a second derived key
 * (`payer-data-lookup`), so a lookup never needs the plaintext stored.
 */
export class PayerDataCipher {
  private readonly encryptionKey: Buffer;
  private readonly lookupKey: Buffer;

  constructor(masterKeyHex: string) {
    this.encryptionKey = derivedKey(masterKeyHex, 'payer-data-at-rest');
    this.lookupKey = derivedKey(masterKeyHex, 'payer-data-lookup');
  }

  seal(plaintext: string, context: PayerFieldContext): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(associatedData(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, ...[iv, cipher.getAuthTag(), ciphertext].map((p) => p.toString('base64url'))].join('.');
  }

  /** Throws when the value was sealed for another merchant, field or document, or altered. */
  open(sealed: string, context: PayerFieldContext): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('unrecognised sealed payer data');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(associatedData(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /**
   * HMAC-SHA256 (hex) of a payer's VPA (case-insensitive, as UPI treats it) or card id within one
   * merchant: equal values give equal hashes, so a lookup or duplicate check matches on it (the same
   * payer's orders and mandates share it); nothing links the same payer across merchants.
   */
  lookupHash(merchantIdentifier: string, kind: 'vpa' | 'cardId', value: string): string {
    const normalised = kind === 'vpa' ? value.toLowerCase() : value;
    return createHmac('sha256', this.lookupKey)
      .update(JSON.stringify([merchantIdentifier, kind, normalised]), 'utf8')
      .digest('hex');
  }
}
