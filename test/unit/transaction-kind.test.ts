import { strict as assert } from 'node:assert';
import type { PaymentInstrument } from '../../src/domain/instrument';
import {
  TRANSACTION_KIND_LABELS,
  TRANSACTION_KINDS,
  transactionKind,
  transactionKindFilter,
  type TransactionKind,
} from '../../src/domain/transaction-kind';
import type { Transaction } from '../../src/domain/transaction';

type Order = Pick<Transaction, 'instrument' | 'channel'>;
const upi: PaymentInstrument = { kind: 'UPI', vpa: 'asha@okbank', bankName: 'NA' };
const card: PaymentInstrument = {
  kind: 'CARD',
  cardToken: '401200XXXXXX1112',
  cardId: 'c1',
  brand: 'VISA',
  cardType: 'CREDIT',
  bankName: 'HDFC Bank',
};

/** Each way an order is stored, and the kind the dashboard must call it. */
const ORDERS: [string, Order, TransactionKind][] = [
  ['a UPI payment', { instrument: upi }, 'payment'],
  ['a card payment', { instrument: card }, 'payment'],
  ['a net banking payment', { instrument: { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'SBI' } }, 'payment'],
  ['an unpaid QR', { instrument: { kind: 'UPI_QR' } }, 'qr'],
  ['a paid QR', { instrument: { ...upi, viaQr: true } }, 'qr'],
  ['an unpaid link', { instrument: { kind: 'PAYMENT_LINK' } }, 'link'],
  ['a link paid by UPI', { instrument: upi, channel: 'link' }, 'link'],
  ['a link paid by card', { instrument: card, channel: 'link' }, 'link'],
  ['a link paid from its QR', { instrument: { ...upi, viaQr: true }, channel: 'link' }, 'link'],
  ['an unpaid checkout', { instrument: { kind: 'CHECKOUT' } }, 'checkout'],
  ['a checkout paid by card', { instrument: card, channel: 'checkout' }, 'checkout'],
  [
    'a mandate debit',
    { instrument: { kind: 'UPI_MANDATE', vpa: 'asha@okbank', bankName: 'NA', mandateOrderId: 'mandate-1' } },
    'mandate-debit',
  ],
];

/** What a MongoDB filter selects, for the operators transactionKindFilter uses. */
function matches(doc: unknown, filter: Record<string, unknown>): boolean {
  const at = (path: string) => path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], doc);
  return Object.entries(filter).every(([key, cond]) => {
    if (key === '$or') return (cond as Record<string, unknown>[]).some((f) => matches(doc, f));
    const value = at(key);
    if (typeof cond !== 'object' || cond === null) return value === cond;
    const c = cond as { $exists?: boolean; $in?: unknown[]; $ne?: unknown };
    if (c.$exists !== undefined && (value !== undefined) !== c.$exists) return false;
    if (c.$in && !c.$in.includes(value)) return false;
    if ('$ne' in c && value === c.$ne) return false;
    return true;
  });
}

describe('transaction kinds (domain)', () => {
  it('names each way an order came to be', () => {
    for (const [what, order, kind] of ORDERS) assert.equal(transactionKind(order), kind, what);
  });

  it("the store filter of a kind selects exactly that kind's orders, so a search reads only them", () => {
    for (const kind of TRANSACTION_KINDS) {
      const filter = transactionKindFilter(kind);
      for (const [what, order, kindOfOrder] of ORDERS)
        assert.equal(matches(order, filter), kindOfOrder === kind, `${kind} filter on ${what}`);
    }
  });

  it('every kind has a label', () => {
    assert.deepEqual(Object.keys(TRANSACTION_KIND_LABELS).sort(), [...TRANSACTION_KINDS].sort());
  });
});
