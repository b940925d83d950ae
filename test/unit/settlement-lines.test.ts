import { strict as assert } from 'node:assert';
import { addLines, EMPTY_TOTALS, settlementOutcome } from '../../src/domain/settlement';
import { chargebackLine, refundLine, saleLines } from '../../src/domain/settlement-lines';
import type { FeePlan } from '../../src/domain/settlement-fees';
import type { Transaction } from '../../src/domain/transaction';

const plan: FeePlan = {
  upi: { percentBps: 200, fixedPaise: 0 },
  card: { debit: { percentBps: 0, fixedPaise: 0 }, credit: { percentBps: 0, fixedPaise: 0 } },
  netbanking: { percentBps: 0, fixedPaise: 0 },
  wallet: { percentBps: 0, fixedPaise: 0 },
  refundReturnsFee: false,
};
const ctx = { settlementId: 'settlement:m1:2026-11-27', settlementDate: '2026-11-27' };
const txn = (over: Partial<Transaction> = {}) =>
  ({
    txnId: 't1',
    merchantIdentifier: 'm1',
    orderId: 'o1',
    amountPaise: 10_000,
    instrument: { kind: 'UPI', vpa: 'a@b', bankName: 'X' },
    successAt: new Date('2026-11-26T10:00:00Z'),
    bankRefNum: '123456789012',
    refunds: [],
    ...over,
  }) as Transaction;

describe('settlement lines and totals (domain)', () => {
  it('a sale: amount - fee - tax, id SALE:<txnId>:<merchant>', () => {
    const [line] = saleLines(txn(), plan, ctx);
    assert.equal(line!._id, 'SALE:t1:m1');
    assert.deepEqual([line!.amountPaise, line!.feePaise, line!.taxPaise, line!.settlementAmountPaise], [10_000, 200, 36, 9_764]);
    assert.equal(line!.rrn, '123456789012');
  });

  it('a split: one line per share, the fee on the whole amount carried by the master', () => {
    const split = {
      masterMerchantIdentifier: 'm1',
      shares: [
        { merchantIdentifier: 'm1', amountPaise: 4_000 },
        { merchantIdentifier: 's1', amountPaise: 6_000 },
      ],
      at: new Date(),
    };
    const lines = saleLines(txn({ split }), plan, ctx);
    assert.deepEqual(
      lines.map((l) => [l._id, l.amountPaise, l.feePaise, l.taxPaise, l.settlementAmountPaise]),
      [
        ['SALE:t1:m1', 4_000, 200, 36, 3_764],
        ['SALE:t1:s1', 6_000, 0, 0, 6_000],
      ],
    );
  });

  it('refunds and chargebacks are negative lines, a revert positive; totals add up', () => {
    const t = txn({
      refunds: [{ merchantRefId: 'r1', amountPaise: 2_500, rrn: 'rrn1', status: 'SUCCESS', createdAt: new Date() }],
    });
    const sale = saleLines(t, plan, ctx)[0]!;
    const refund = refundLine(t, 0, plan, sale, ctx);
    assert.deepEqual([refund._id, refund.settlementAmountPaise, refund.feePaise], ['REFUND:t1/r1:m1', -2_500, 0]);
    const cb = chargebackLine(t, 1_000, false, ctx);
    const rev = chargebackLine(t, 1_000, true, ctx);
    assert.deepEqual(
      [cb._id, cb.settlementAmountPaise, rev._id, rev.settlementAmountPaise],
      ['CHARGEBACK:t1:m1', -1_000, 'CHARGEBACK_REVERSAL:t1:m1', 1_000],
    );
    const totals = addLines(EMPTY_TOTALS, [sale, refund, cb, rev]);
    assert.deepEqual(totals, {
      lineCount: 4,
      grossPaise: 10_000,
      refundsPaise: 2_500,
      chargebacksPaise: 0,
      feePaise: 200,
      taxPaise: 36,
      linesNetPaise: 7_264,
    });
    // The invariant the money model checks: net + fee + tax = gross - refunds - chargebacks.
    assert.equal(
      totals.linesNetPaise + totals.feePaise + totals.taxPaise,
      totals.grossPaise - totals.refundsPaise - totals.chargebacksPaise,
    );
  });

  it('a refund returning the fee carries negative fee and tax', () => {
    const t = txn({
      refunds: [{ merchantRefId: 'r1', amountPaise: 10_000, rrn: null, status: 'SUCCESS', createdAt: new Date() }],
    });
    const refund = refundLine(t, 0, { refundReturnsFee: true }, { feePaise: 200, taxPaise: 36 }, ctx);
    assert.deepEqual([refund.feePaise, refund.taxPaise, refund.settlementAmountPaise], [-200, -36, -9_764]);
  });

  it('a positive net is paid; zero or negative (with what is carried in) is carried forward', () => {
    assert.deepEqual(settlementOutcome(5_000, -1_000), { pay: true, netPaise: 4_000 });
    assert.deepEqual(settlementOutcome(-2_000, 0), { pay: false, netPaise: -2_000, carriedOutPaise: -2_000 });
    assert.deepEqual(settlementOutcome(0, 0), { pay: false, netPaise: 0, carriedOutPaise: 0 });
  });
});
