import type { Merchant } from './merchant';
import type { Paise } from './money';

/** A dynamic QR order as the merchant asks for it, once authenticated and validated. */
export interface CreateQrRequest {
  merchant: Merchant;
  orderId: string;
  amountPaise: Paise;
  productDescription: string;
  buyerEmail: string | null;
  width: number;
  height: number;
  ipAddress: string | null;
}

/**
 * `data` is the response's QR payment record as JSON text: stored with the order in the same insert
 * that creates it, so every repeat (and every loser of a race for a new order id) answers the
 * first request's bytes exactly.
 */
export type CreateQrResult = { kind: 'created'; data: string } | { kind: 'repeat'; data: string };
