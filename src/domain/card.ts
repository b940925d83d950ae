import { createHmac } from 'node:crypto';
import { derivedKey } from './secrets';

export type CardBrand = 'VISA' | 'MASTERCARD' | 'RUPAY' | 'AMEX' | 'UNKNOWN';

/** `401200XXXXXX1112`: first six and last four digits, the rest X (PCI DSS display rule). */
export function maskCardNumber(pan: string): string {
  return `${pan.slice(0, 6)}${'X'.repeat(Math.max(pan.length - 10, 0))}${pan.slice(-4)}`;
}

export function cardBrand(pan: string): CardBrand {
  if (/^4/.test(pan)) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(pan)) return 'MASTERCARD';
  if (/^(60|65|81|82|508)/.test(pan)) return 'RUPAY';
  if (/^3[47]/.test(pan)) return 'AMEX';
  return 'UNKNOWN';
}

/**
 * A stable, opaque card identifier (the contract's `cardId`): keyed hash of the number, so the same
 * card gets the same id without the gateway keeping the number. The key is cardIdKey's.
 */
export function cardIdentifier(pan: string, key: Buffer | string): string {
  return createHmac('sha256', key).update(`card:${pan}`).digest('hex').slice(0, 32);
}

/**
 * The card-id HMAC key: derived from MASTER_KEY for this purpose only (before, MASTER_KEY itself
 * keyed it). Ids already stored and delivered stay as they are; the same card gets a new id from
 * the switch on (the gateway never kept the number to recompute one).
 */
export const cardIdKey = (masterKeyHex: string): Buffer => derivedKey(masterKeyHex, 'card-id');
