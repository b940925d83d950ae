import { randomBytes } from 'node:crypto';

/** 32 lowercase hex characters (merchantIdentifier and secretKey, when generated: design.md, Keys and merchants). */
export const randomHex32 = () => randomBytes(16).toString('hex');

/** Gateway transaction id: sortable by creation time, unique without coordination. */
export function newTxnId(now: Date): string {
  return `${now.getTime().toString(36).toUpperCase()}${randomBytes(6).toString('hex').toUpperCase()}`;
}

/** Merchant order ids: what the status API, workflow ids and search attributes accept. */
export const ORDER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._\-/]{0,63}$/;
