import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { decideRefund, refundRequestProblem, sameRefundRequest, statusForReserved } from '../../src/domain/refund';
import type { Transaction } from '../../src/domain/transaction';

describe('refund rules', () => {
  it("matches Zaakpay's published Update/Refund checksum example over the exact data string", () => {
    const data =
      '{"merchantIdentifier":"fb2016ffd3a64b2994a6289dc2b671a4","orderDetail":{"orderId":"ZPLive1632373152375","amount":"100","productDescription":"test product"},"mode":"0","updateDesired":"14","updateReason":"test reason","merchantRefId":"TESTINGtugh3"}';
    assert.equal(
      hmacSha256Hex('0678056d96914a8583fb518caf42828a', data),
      'f70f43590249d2ef82ceb2d851109b5b61e2f35e43931eef529ffaa34243a834',
    );
  });

  it('checks updateDesired and updateReason in Zaakpay order', () => {
    assert.equal(refundRequestProblem(undefined, 'reason ok'), 'updateDesiredBlank');
    assert.equal(refundRequestProblem('7', 'reason ok'), 'updateDesiredInvalid');
    assert.equal(refundRequestProblem(14, 'reason ok'), 'updateDesiredInvalid');
    assert.equal(refundRequestProblem('14', ''), 'updateReasonBlank');
    assert.equal(refundRequestProblem('14', 'shrt'), 'updateReasonInvalid');
    assert.equal(refundRequestProblem('14', 'no-dashes allowed'), 'updateReasonInvalid');
    assert.equal(refundRequestProblem('14', 'x'.repeat(31)), 'updateReasonInvalid');
    assert.equal(refundRequestProblem('22', 'test reason'), null);
  });

  const paid = (amountPaise: number, reserved = 0, status: Transaction['status'] = 'Success') =>
    ({ amountPaise, refundReservedPaise: reserved, status }) as Transaction;

  it('refunds what remains, never more', () => {
    assert.deepEqual(decideRefund(paid(10_000), '14', undefined), { ok: true, amountPaise: 10_000, statusAfter: 'Refund' });
    assert.deepEqual(decideRefund(paid(10_000, 3000, 'PartialRefund'), '14', 99), {
      ok: true,
      amountPaise: 7000,
      statusAfter: 'Refund',
    });
    assert.deepEqual(decideRefund(paid(10_000, 3000, 'PartialRefund'), '22', 3000), {
      ok: true,
      amountPaise: 3000,
      statusAfter: 'PartialRefund',
    });
    assert.deepEqual(decideRefund(paid(10_000, 3000, 'PartialRefund'), '22', 7001), { ok: false, response: 'cannotRefund' });
    assert.deepEqual(decideRefund(paid(10_000, 10_000, 'Refund'), '14', undefined), { ok: false, response: 'cannotRefund' });
    assert.deepEqual(decideRefund(paid(10_000, 0, 'Chargeback'), '14', undefined), { ok: false, response: 'notProcessed' });
  });

  it('derives txnStatus from what stands refunded', () => {
    assert.equal(statusForReserved(100, 0), 'Success');
    assert.equal(statusForReserved(100, 1), 'PartialRefund');
    assert.equal(statusForReserved(100, 100), 'Refund');
  });

  it('treats a repeat as the same refund only with the same kind and amount', () => {
    const e = {
      merchantRefId: 'r',
      amountPaise: 500,
      rrn: null,
      status: 'PENDING' as const,
      createdAt: new Date(),
      updateDesired: '22' as const,
    };
    assert.equal(sameRefundRequest(e, '22', 500), true);
    assert.equal(sameRefundRequest(e, '22', 501), false);
    assert.equal(sameRefundRequest(e, '14', undefined), false);
  });
});
