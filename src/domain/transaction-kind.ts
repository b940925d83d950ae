import type { Transaction } from './transaction';

/**
 * How an order came to be, as the dashboard searches it: a payment sent with its instrument
 * (Transact API), a dynamic UPI QR, a payment link, a hosted checkout or a debit under a mandate.
 * A QR, link or checkout order takes its payer's instrument when paid, so links and checkouts carry
 * `channel` from creation; a paid QR keeps `viaQr` on its UPI instrument.
 */
export const TRANSACTION_KINDS = ['payment', 'qr', 'link', 'checkout', 'mandate-debit'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export const TRANSACTION_KIND_LABELS: Record<TransactionKind, string> = {
  payment: 'Payment',
  qr: 'UPI QR',
  link: 'Payment link',
  checkout: 'Hosted checkout',
  'mandate-debit': 'Mandate debit',
};

export function transactionKind(t: Pick<Transaction, 'instrument' | 'channel'>): TransactionKind {
  if (t.channel) return t.channel;
  const i = t.instrument;
  if (i.kind === 'UPI_MANDATE') return 'mandate-debit';
  if (i.kind === 'UPI_QR' || (i.kind === 'UPI' && i.viaQr)) return 'qr';
  if (i.kind === 'PAYMENT_LINK') return 'link';
  if (i.kind === 'CHECKOUT') return 'checkout';
  return 'payment';
}

/** The same test as a store filter (MongoDB query language), so a search reads only that kind. */
export function transactionKindFilter(kind: TransactionKind): Record<string, unknown> {
  switch (kind) {
    case 'link':
      return { $or: [{ channel: 'link' }, { 'instrument.kind': 'PAYMENT_LINK' }] };
    case 'checkout':
      return { $or: [{ channel: 'checkout' }, { 'instrument.kind': 'CHECKOUT' }] };
    case 'mandate-debit':
      return { channel: { $exists: false }, 'instrument.kind': 'UPI_MANDATE' };
    case 'qr':
      return { channel: { $exists: false }, $or: [{ 'instrument.kind': 'UPI_QR' }, { 'instrument.viaQr': true }] };
    case 'payment':
      return {
        channel: { $exists: false },
        'instrument.kind': { $in: ['UPI', 'CARD', 'NETBANKING'] },
        'instrument.viaQr': { $ne: true },
      };
  }
}
