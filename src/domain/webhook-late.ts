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
