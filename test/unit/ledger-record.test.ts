import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { toBulkRecord, toLedgerRecord } from '../../src/domain/ledger-record';
import { LEDGER_STATES, ledgerStateOf, txnStatusesFor } from '../../src/domain/ledger-state';
import { paiseToRupees } from '../../src/domain/money';
import { istDay, istPeriod } from '../../src/domain/report-range';
import type { Transaction } from '../../src/domain/transaction';
import { TxnStatus, type TxnStatusName } from '../../src/domain/txn-status';

const card: Transaction = {
  txnId: 'ZP1',
  merchantIdentifier: 'm',
  orderId: 'o-1',
  amountPaise: 1_000_010,
  productDescription: 'Kurta',
  product2Description: 'Cotton',
  buyerName: 'Asha',
  buyerEmail: null,
  ipAddress: '203.0.113.9',
  instrument: {
    kind: 'CARD',
    cardToken: '401200XXXXXX1112',
    cardId: 'c1',
    brand: 'VISA',
    cardType: 'DEBIT',
    bankName: 'HDFC Bank',
  },
  status: 'PartialRefund',
  responseCode: '100',
  responseDescription: 'ok',
  bankRefNum: '1',
  authCode: '004211',
  markedFailedByService: false,
  createdAt: new Date('2026-01-31T18:29:59.000Z'), // 2026-01-31 23:59:59 IST
  updatedAt: new Date('2026-01-31T18:31:00.000Z'),
  completedAt: new Date('2026-01-31T18:30:00.000Z'),
  successAt: new Date('2026-01-31T18:30:00.000Z'), // 2026-02-01 00:00:00 IST
  refunds: [
    { merchantRefId: 'r1', amountPaise: 1005, rrn: 'x', status: 'SUCCESS', createdAt: new Date('2026-02-01T00:00:00Z') },
    { merchantRefId: 'r2', amountPaise: 7, rrn: null, status: 'FAILED', createdAt: new Date('2026-02-01T00:00:00Z') },
  ],
  version: 3,
};

describe('ledger and bulk records', () => {
  it('turns paise into rupees exactly, at most two decimals, for every amount up to 10 lakh rupees', () => {
    for (let paise = 0; paise <= 100_000_000; paise += paise < 100_000 ? 1 : 9_973) {
      const text = JSON.stringify(paiseToRupees(paise));
      const expected = `${Math.floor(paise / 100)}${paise % 100 ? `.${String(paise % 100).padStart(2, '0')}`.replace(/0$/, '') : ''}`;
      assert.equal(text, expected, `${paise} paise`);
    }
  });

  it('has one ledger state for every transaction status, and the contract numbers', () => {
    assert.deepEqual(Object.keys(LEDGER_STATES).sort(), Object.keys(TxnStatus).sort());
    const s = (name: TxnStatusName) => [
      LEDGER_STATES[name].status,
      LEDGER_STATES[name].state,
      LEDGER_STATES[name].stateDescription,
    ];
    assert.deepEqual(s('Pending'), ['PENDING', 2, 'Processing']);
    assert.deepEqual(s('Failure'), ['FAILED', 6, 'Declined']);
    assert.deepEqual(s('Success'), ['SUCCESS', 7, 'Captured']);
    assert.equal(ledgerStateOf({ status: 'Success', refunds: [{ ...card.refunds[0]!, status: 'PENDING' }] }).state, 22);
    assert.deepEqual(txnStatusesFor('FAILED'), ['Failure']);
    assert.equal(txnStatusesFor('ALL').length, 9);
  });

  it('reads IST periods: a minute, a whole day, and nothing that does not exist', () => {
    assert.deepEqual(istPeriod('2026-01-10 12:00'), {
      from: new Date('2026-01-10T06:30:00Z'),
      until: new Date('2026-01-10T06:31:00Z'),
    });
    assert.deepEqual(istDay('2026-03-01'), { from: new Date('2026-02-28T18:30:00Z'), until: new Date('2026-03-01T18:30:00Z') });
    for (const bad of ['2026-02-29', '2026-13-01', '2026-01-10 24:00', '2026-01-10 12:60', '2026-1-10', '']) {
      assert.equal(istPeriod(bad), null, bad);
    }
    assert.equal(istDay('2026-01-10 12:00'), null);
    assert.deepEqual(istDay('0001-01-01')?.from, new Date('0000-12-31T18:30:00Z'), 'years below 100 are those years');
  });

  it('a ledger record: IST dates, integer responseCode, card fields, refunds not failed', () => {
    const r = toLedgerRecord(card);
    assert.equal(r.txnInitiatedDate, '2026-01-31 23:59:59');
    assert.equal(r.txnSuccessDate, '2026-02-01 00:00:00');
    assert.deepEqual([r.status, r.state, r.responseCode, r.amountInRupees], ['SUCCESS', 23, 100, 10000.1]);
    assert.deepEqual(
      [r.brand, r.cardType, r.cardNumber, r.paymentSource, r.bankName],
      ['VISA', 'DEBIT', '401200XXXXXX1112', 'Card', 'HDFC Bank'],
    );
    assert.deepEqual(r.refundDetail, [{ refundReferenceNumber: 'r1', createdAt: '2026-02-01 05:30:00', amount: 10.05 }]);
    assert.equal(r.buyerEmail, 'NA');
  });

  it('a bulk record: its checksum is the HMAC of its JSON without checksum, recomputed here by hand', () => {
    const r = toBulkRecord(card, 'secret-key');
    assert.equal(r.approvalCode, 4211, "a JSON number, as Zaakpay's sample");
    assert.deepEqual([r.paymentSource, r.cardType], ['Card', 'DEBIT'], "Zaakpay's sample: Card, cardType saying which");
    assert.equal(toBulkRecord({ ...card, authCode: null }, 'k').approvalCode, null);
    const json =
      '{"txnInitiatedDate":"2026-01-31 23:59:59","txnSuccessDate":"2026-02-01 00:00:00","orderid":"o-1","txnid":"ZP1",' +
      '"amount":10000.1,"paymentSource":"Card","brand":"VISA","cardType":"DEBIT","buyerName":"Asha","buyerEmail":null,' +
      '"status":"Success","approvalCode":4211,"productDescription":"Kurta","productDescription1":null,' +
      '"productDescription2":"Cotton","productDescription3":null,"productDescription4":null,"bankName":"HDFC Bank",' +
      '"cardNumber":"401200XXXXXX1112","ipAddress":"203.0.113.9",' +
      '"refundDetail":[{"refundReferenceNumber":"r1","createdAt":"2026-02-01 05:30:00","amount":10.05}]}';
    assert.equal(r.checksum, createHmac('sha256', 'secret-key').update(json).digest('hex'));
    assert.deepEqual(Object.keys(r).indexOf('checksum'), Object.keys(r).indexOf('productDescription4') + 1);
  });

  it('nothing refunded (or only failed refunds): the bulk record has refundDetail [], the ledger record null', () => {
    for (const refunds of [[], card.refunds.map((x) => ({ ...x, status: 'FAILED' as const }))]) {
      const t = { ...card, refunds };
      assert.deepEqual(toBulkRecord(t, 'secret-key').refundDetail, []);
      assert.equal(toLedgerRecord(t).refundDetail, null);
    }
  });
});
