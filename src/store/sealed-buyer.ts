import type { PayerDataCipher, PayerFieldContext } from '../domain/payer-data';
import type { Transaction } from '../domain/transaction';

/** The payer details an order keeps: sealed together at rest as `buyerSealed`. */
export const BUYER_FIELDS = ['buyerName', 'buyerEmail', 'ipAddress'] as const;
export type BuyerDetails = Pick<Transaction, (typeof BUYER_FIELDS)[number]>;

const context = (order: { merchantIdentifier: string; orderId: string }): PayerFieldContext => ({
  merchantIdentifier: order.merchantIdentifier,
  field: 'buyer',
  documentId: `${order.merchantIdentifier}:${order.orderId}`,
});

/** The buyer's name, email and address as one value sealed for this order. */
export function sealBuyer(
  cipher: PayerDataCipher,
  order: { merchantIdentifier: string; orderId: string },
  buyer: BuyerDetails,
): string {
  const clear = Object.fromEntries(BUYER_FIELDS.map((k) => [k, buyer[k] ?? null]));
  return cipher.seal(JSON.stringify(clear), context(order));
}

/** The buyer details sealed by sealBuyer; throws if sealed for another order. */
export function openBuyer(
  cipher: PayerDataCipher,
  order: { merchantIdentifier: string; orderId: string },
  sealed: string,
): BuyerDetails {
  return JSON.parse(cipher.open(sealed, context(order))) as BuyerDetails;
}
