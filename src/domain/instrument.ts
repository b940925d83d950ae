import type { CardBrand } from './card';

/**
 * How the payer paid, as the gateway keeps it. Card numbers never reach this type: only the masked
 * number and an opaque card id do, so nothing downstream (store, Temporal history, logs) holds a PAN.
 */
export type PaymentInstrument =
  | { kind: 'UPI'; vpa: string; bankName: string; viaQr?: true }
  /** A dynamic QR nobody has paid yet: who the payer will be is not known. */
  | { kind: 'UPI_QR' }
  /** A payment link nobody has paid yet: the payer chooses the instrument on the link's page. */
  | { kind: 'PAYMENT_LINK' }
  /** A hosted checkout nobody has paid yet: the payer chooses the instrument on the checkout page. */
  | { kind: 'CHECKOUT' }
  | {
      kind: 'CARD';
      cardToken: string;
      cardId: string;
      brand: CardBrand;
      cardType: 'CREDIT' | 'DEBIT';
      bankName: string;
    }
  | { kind: 'NETBANKING'; bankCode: string; bankName: string }
  /** A debit under a UPI AutoPay mandate: the payer approved it once, at the mandate's creation. */
  | { kind: 'UPI_MANDATE'; vpa: string; bankName: string; mandateOrderId: string };

/**
 * What the status API needs of an instrument: a card whole (its type, masked number and id), any
 * other kind at least its kind (the status read opens no VPA).
 */
export type ShownInstrument = PaymentInstrument | { kind: Exclude<PaymentInstrument['kind'], 'CARD'> };

/** `paymentInstrument.paymentMode` of the status API. */
export function paymentModeText(i: ShownInstrument): string {
  switch (i.kind) {
    case 'UPI':
    case 'UPI_QR':
    case 'UPI_MANDATE':
      return 'UPI';
    case 'CARD':
      return i.cardType === 'CREDIT' ? 'Credit Card' : 'Debit Card';
    case 'NETBANKING':
      return 'Net Banking';
    case 'PAYMENT_LINK':
    case 'CHECKOUT':
      return 'NA';
  }
}

/** An order that waits for its payer to bring the instrument (dynamic QR, payment link, hosted checkout). */
export function awaitsPayer(i: PaymentInstrument): boolean {
  return i.kind === 'UPI_QR' || i.kind === 'PAYMENT_LINK' || i.kind === 'CHECKOUT';
}

/** Short human description for memos and logs (never a full card number). */
export function describeInstrument(i: PaymentInstrument): string {
  switch (i.kind) {
    case 'UPI':
      return `UPI ${i.viaQr ? 'QR ' : ''}${i.vpa}`;
    case 'UPI_QR':
      return 'UPI QR, awaiting the payer';
    case 'CARD':
      return `${i.brand} ${i.cardType} ${i.cardToken}`;
    case 'NETBANKING':
      return `Net Banking ${i.bankCode}`;
    case 'PAYMENT_LINK':
      return 'payment link, awaiting the payer';
    case 'CHECKOUT':
      return 'hosted checkout, awaiting the payer';
    case 'UPI_MANDATE':
      return `UPI AutoPay ${i.vpa} under mandate ${i.mandateOrderId}`;
  }
}
