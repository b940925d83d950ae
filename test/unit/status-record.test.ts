import { strict as assert } from 'node:assert';
import { toStatusOrderRecord } from '../../src/domain/status-record';
import type { Transaction } from '../../src/domain/transaction';

const base: Transaction = {
  txnId: 'TXN1',
  merchantIdentifier: 'a'.repeat(32),
  orderId: 'o-1',
  amountPaise: 125_050,
  productDescription: 'Saree',
  buyerName: null,
  buyerEmail: null,
  ipAddress: null,
  instrument: {
    kind: 'CARD',
    cardToken: '400000XXXXXX0002',
    cardId: 'c'.repeat(32),
    brand: 'VISA',
    cardType: 'DEBIT',
    bankName: 'ICICI Bank',
  },
  status: 'Success',
  responseCode: '100',
  responseDescription: 'The transaction was completed successfully.',
  bankRefNum: '123456789012',
  authCode: '654321',
  markedFailedByService: false,
  createdAt: new Date('2026-11-21T20:00:00.000Z'), // 22 Nov 01:30:00 IST
  updatedAt: new Date('2026-11-21T20:05:00.000Z'),
  completedAt: new Date('2026-11-21T20:01:02.000Z'), // 22 Nov 01:31:02 IST
  successAt: new Date('2026-11-21T20:01:02.000Z'),
  refunds: [],
  version: 2,
};

describe('status API order record', () => {
  it('renders amounts in paise as strings, card data masked, dates in IST', () => {
    const r = toStatusOrderRecord(base);
    assert.deepEqual(r.orderDetail, {
      orderId: 'o-1',
      txnId: 'TXN1',
      amount: '125050',
      productDescription: 'Saree',
      createDate: '2026-11-22 01:30:00',
    });
    assert.deepEqual(r.paymentInstrument, {
      paymentMode: 'Debit Card',
      card: { cardToken: '400000XXXXXX0002', cardId: 'c'.repeat(32) },
    });
    assert.equal(r.txnDate, '2026-11-22 01:31:02');
    assert.equal(r.txnStatus, '0');
  });

  it('lists refunds with the contract fields and the refund status text', () => {
    const r = toStatusOrderRecord({
      ...base,
      status: 'PartialRefund',
      refunds: [
        { merchantRefId: 'r-1', amountPaise: 50_000, rrn: '998877665544', status: 'SUCCESS', createdAt: new Date() },
        { merchantRefId: 'r-2', amountPaise: 100, rrn: null, status: 'PENDING', createdAt: new Date() },
      ],
    });
    assert.equal(r.txnStatus, '4');
    assert.deepEqual(r.refundDetails, [
      { merchantRefId: 'r-1', amount: '50000', rrn: '998877665544', refundStatus: 'SUCCESS' },
      { merchantRefId: 'r-2', amount: '100', rrn: 'NA', refundStatus: 'PENDING' },
    ]);
  });

  it('a Pending order has no completion yet: txnDate is its last update, and a card of NA for net banking', () => {
    const r = toStatusOrderRecord({
      ...base,
      status: 'Pending',
      completedAt: null,
      instrument: { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' },
    });
    assert.equal(r.txnStatus, '2');
    assert.equal(r.txnDate, '2026-11-22 01:35:00');
    assert.deepEqual(r.paymentInstrument, { paymentMode: 'Net Banking', card: { cardToken: 'NA', cardId: 'NA' } });
  });
});
