import type { CardBrand } from '../domain/card';
import type { PaymentInstrument } from '../domain/instrument';

/**
 * A card payer whose card the gateway never sees (BANK_CONNECTOR=http): the payer types it on the
 * bank's page. Until the bank says which card it was, the order shows `NA`, the contract's text
 * without data.
 */
export const cardAtBank = (): Extract<PaymentInstrument, { kind: 'CARD' }> => ({
  kind: 'CARD',
  cardToken: 'NA',
  cardId: 'NA',
  brand: 'UNKNOWN',
  cardType: 'CREDIT',
  bankName: 'NA',
});

export interface CardSeenByBank {
  cardToken: string;
  brand: string;
  cardType: 'CREDIT' | 'DEBIT';
  bankName: string;
}

const BRANDS: readonly CardBrand[] = ['VISA', 'MASTERCARD', 'RUPAY', 'AMEX', 'UNKNOWN'];

/** The instrument with the masked card the bank reported, when the payer typed it at the bank. */
export function withCardSeen(instrument: PaymentInstrument, card: CardSeenByBank | undefined): PaymentInstrument {
  if (!card || instrument.kind !== 'CARD' || instrument.cardToken !== 'NA') return instrument;
  return {
    ...instrument,
    cardToken: card.cardToken.slice(0, 32),
    brand: BRANDS.includes(card.brand as CardBrand) ? (card.brand as CardBrand) : 'UNKNOWN',
    cardType: card.cardType,
    bankName: card.bankName.slice(0, 100),
  };
}
