import { strict as assert } from 'node:assert';
import type { PaymentInstrument } from '../../src/domain/instrument';
import {
  DEFAULT_FEE_PLAN,
  feeRateFor,
  mulDivHalfUp,
  refundReturnedFee,
  saleFee,
  type FeePlan,
} from '../../src/domain/settlement-fees';

const card = (brand: 'VISA' | 'AMEX' | 'RUPAY', cardType: 'CREDIT' | 'DEBIT'): PaymentInstrument => ({
  kind: 'CARD',
  cardToken: '4111XXXXXXXX1111',
  cardId: 'c1',
  brand,
  cardType,
  bankName: 'HDFC',
});
const upi: PaymentInstrument = { kind: 'UPI', vpa: 'a@b', bankName: 'X' };
const plan: FeePlan = {
  upi: { percentBps: 50, fixedPaise: 0 },
  card: { debit: { percentBps: 40, fixedPaise: 0 }, credit: { percentBps: 190, fixedPaise: 300 } },
  networks: { AMEX: { credit: { percentBps: 300, fixedPaise: 0 } } },
  netbanking: { percentBps: 0, fixedPaise: 1_000 },
  wallet: { percentBps: 100, fixedPaise: 0 },
  refundReturnsFee: true,
};

describe('settlement fees (domain)', () => {
  it('rounds half-up to the paisa: 0.5 paisa goes up, 0.49 goes down', () => {
    assert.equal(mulDivHalfUp(100, 50, 10_000), 1); // 0.5 -> 1
    assert.equal(mulDivHalfUp(99, 50, 10_000), 0); // 0.495 -> 0
    assert.equal(mulDivHalfUp(101, 50, 10_000), 1); // 0.505 -> 1
    assert.equal(mulDivHalfUp(25, 18, 100), 5); // 4.5 -> 5
    assert.equal(mulDivHalfUp(100_000_000, 10_000, 10_000), 100_000_000, 'exact at the largest amount and 100 %');
  });

  it('picks the rate by instrument, the card network overriding debit/credit', () => {
    assert.deepEqual(feeRateFor(plan, card('VISA', 'CREDIT')), plan.card.credit);
    assert.deepEqual(feeRateFor(plan, card('VISA', 'DEBIT')), plan.card.debit);
    assert.deepEqual(feeRateFor(plan, card('AMEX', 'CREDIT')), { percentBps: 300, fixedPaise: 0 });
    assert.deepEqual(feeRateFor(plan, card('AMEX', 'DEBIT')), plan.card.debit, 'a network without a debit rate falls back');
    assert.deepEqual(feeRateFor(plan, { kind: 'NETBANKING', bankCode: 'SBI', bankName: 'SBI' }), plan.netbanking);
    assert.deepEqual(feeRateFor(plan, { kind: 'UPI_MANDATE', vpa: 'a@b', bankName: 'X', mandateOrderId: 'm' }), plan.upi);
  });

  it('fee = percentage rounded half-up plus the fixed fee; tax = 18 % of the fee, rounded half-up', () => {
    // 1,234.57 rupees by credit card: 1.90 % = 2345.683 paise -> 2346, + 300 fixed = 2646; GST 476.28 -> 476
    assert.deepEqual(saleFee(plan, card('VISA', 'CREDIT'), 123_457), { feePaise: 2_646, taxPaise: 476 });
    // UPI 0.5 % of 1 rupee 1 paisa = 0.505 -> 1; GST 0.18 -> 0
    assert.deepEqual(saleFee(plan, upi, 101), { feePaise: 1, taxPaise: 0 });
    // net banking fixed 10 rupees: GST 1.80 rupees
    assert.deepEqual(saleFee(plan, { kind: 'NETBANKING', bankCode: 'SBI', bankName: 'SBI' }, 50_000), {
      feePaise: 1_000,
      taxPaise: 180,
    });
    // 2.5 paisa of tax rounds up: fee 25 paise (0.5 % of 50 rupees) -> tax 4.5 -> 5
    assert.deepEqual(saleFee(plan, upi, 5_000), { feePaise: 25, taxPaise: 5 });
  });

  it('the default plan charges nothing on UPI and a fee on cards', () => {
    assert.deepEqual(saleFee(DEFAULT_FEE_PLAN, upi, 10_000), { feePaise: 0, taxPaise: 0 });
    assert.ok(saleFee(DEFAULT_FEE_PLAN, card('VISA', 'CREDIT'), 10_000).feePaise > 0);
  });

  it('a refund returns its share of the fee when the plan says so; partial refunds add up to the whole fee', () => {
    const sale = { amountPaise: 10_001, feePaise: 333, taxPaise: 60 };
    const parts = [3_333, 3_333, 3_335];
    let before = 0;
    let fee = 0;
    let tax = 0;
    for (const p of parts) {
      const r = refundReturnedFee(plan, sale, before, p);
      fee += r.feePaise;
      tax += r.taxPaise;
      before += p;
    }
    assert.deepEqual({ fee, tax }, { fee: 333, tax: 60 });
    assert.deepEqual(refundReturnedFee({ refundReturnsFee: false }, sale, 0, 10_001), { feePaise: 0, taxPaise: 0 });
  });
});
