import assert from 'node:assert/strict';
import { hmacHex } from '../src/checksum';
import { SignatureVerificationError } from '../src/signature-error';
import { fakeRealtimeTxn, signFakeWebhook } from '../src/testing';
import type { SettlementProcessed } from '../src/types';
import { isSettlementProcessed, verifyWebhook } from '../src/webhooks';

const SECRET = 'merchant-secret-key';

const event: SettlementProcessed = {
  event: 'settlement.processed',
  settlementId: 'settlement:m1:2026-11-03',
  merchantIdentifier: 'm1',
  settlementDate: '03-11-2026',
  utr: 'SIMU000000000001',
  paidAt: '2026-11-03 10:00:05',
  transactionCount: '2',
  grossAmount: '300.00',
  refundAmount: '0.00',
  chargebackAmount: '0.00',
  feeAmount: '6.00',
  taxAmount: '1.08',
  carriedInAmount: '0.00',
  netAmount: '292.92',
};

describe('SDK: the settlement.processed call', () => {
  it('verifies with the same checksum as a transaction call and gives the settlement apart', () => {
    const text = JSON.stringify(event);
    const body = new URLSearchParams({ txnData: text, checksum: hmacHex(SECRET, text) }).toString();
    const verified = verifyWebhook(body, { 'x-webhook-id': 'settlement-processed:m1:2026-11-03' }, { secretKey: SECRET });
    assert.deepEqual(verified.settlement, event);
    assert.equal(verified.id, 'settlement-processed:m1:2026-11-03');
    assert.ok(isSettlementProcessed(verified.txnData));
    const tampered = body.replace('292.92', '392.92');
    assert.throws(() => verifyWebhook(tampered, {}, { secretKey: SECRET }), SignatureVerificationError);
  });

  it('leaves settlement undefined for a transaction call', () => {
    const call = signFakeWebhook(
      { merchantIdentifier: 'm1', txns: [fakeRealtimeTxn({ orderId: 'order-1', amount: '300.00' })], refunds: [] },
      { secretKey: SECRET },
    );
    const verified = verifyWebhook(call.body, call.headers, { secretKey: SECRET });
    assert.equal(verified.settlement, undefined);
    assert.equal(isSettlementProcessed(verified.txnData), false);
  });
});
