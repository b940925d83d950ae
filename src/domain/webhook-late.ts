import { contentDeliveryId } from './webhook-id';
import { formatIstDateTimeMillis } from './ist-time';

/** At most this many transactions (txns and refunds entries together) in one non-real-time call. */
export const LATE_UPDATES_PER_CALL = 10;

/** An update after the fact: a reconciliation success (`txn`) or an auto-refund (`refund`). */
export interface LateUpdate {
  kind: 'txn' | 'refund';
  orderId: string;
  amountPaise: number;
  /** ISO instant of the update. */
  at: string;
}

/** The contract's short entry: amount (number, paise), orderid, txnDate `yyyy-MM-dd HH:mm:ss.S` in IST. */
export function lateEntry(u: LateUpdate): { amount: number; orderid: string; txnDate: string } {
  return { amount: u.amountPaise, orderid: u.orderId, txnDate: formatIstDateTimeMillis(new Date(u.at)).slice(0, -2) };
}

/** Cuts updates into calls of at most 10 (26 give 10, 10 and 6), in the order they came. */
export function cutIntoCalls<T>(updates: T[], size = LATE_UPDATES_PER_CALL): T[][] {
  const calls: T[][] = [];
  for (let i = 0; i < updates.length; i += size) calls.push(updates.slice(i, i + size));
  return calls;
}

/**
 * A non-real-time call's delivery id, derived from what it carries, so the same updates never give
 * two deliveries: `nrt:<merchant>:<128-bit hex of SHA-256 over the update keys>`.
 */
export function lateDeliveryId(merchantIdentifier: string, updates: LateUpdate[]): string {
  return contentDeliveryId(
    'nrt',
    merchantIdentifier,
    updates.map((u) => [u.kind, u.orderId, u.amountPaise, u.at]),
  );
}

/**
 * The id batch runs recorded before full-width ids gave the same call (53-bit cyrb53 over the
 * update keys): kept so those runs replay as they ran.
 */
export function lateDeliveryId53(merchantIdentifier: string, updates: LateUpdate[]): string {
  const text = updates.map((u) => `${u.kind}:${u.orderId}:${u.amountPaise}:${u.at}`).join('|');
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  return `nrt:${merchantIdentifier}:${hash}:${updates.length}`;
}
