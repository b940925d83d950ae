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
import { refundLine } from '../../src/domain/settlement-lines';
import type { RefundEntry } from '../../src/domain/transaction';

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

  // Property: however a sale is refunded in parts and whatever order the bank answers them in, the
  // REFUND lines (each built when its refund is claimed, from the order as it then stands) return
  // exactly the fee and tax the sale was charged.
  it('refunds in parts, answered in any order, return exactly the fee charged (200 random sales)', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const ctx = { settlementId: 's', settlementDate: '2026-11-27' };
    for (let run = 0; run < 200; run++) {
      const amountPaise = 100 + rand(10_000_000);
      const p: FeePlan = { ...plan, card: { ...plan.card, credit: { percentBps: 1 + rand(400), fixedPaise: rand(500) } } };
      const instrument = card('VISA', 'CREDIT');
      const charged = saleFee(p, instrument, amountPaise);
      // Split the amount into 2 to 6 parts, asked for in index order.
      const cuts = Array.from({ length: 1 + rand(5) }, () => 1 + rand(amountPaise - 1)).sort((a, b) => a - b);
      const bounds = [0, ...cuts, amountPaise];
      const parts = bounds
        .slice(1)
        .map((b, i) => b - bounds[i]!)
        .filter((x) => x > 0);
      const refunds: RefundEntry[] = parts.map((amount, i) => ({
        merchantRefId: `r${i}`,
        amountPaise: amount,
        rrn: null,
        status: 'PENDING',
        createdAt: new Date(0),
      }));
      // The bank answers in a random order; each refund's line is built once it settled.
      const order = parts.map((_, i) => i).sort(() => rand(3) - 1);
      let fee = 0;
      let tax = 0;
      order.forEach((index, k) => {
        refunds[index] = { ...refunds[index]!, status: 'SUCCESS', completedAt: new Date(1_000 * (k + 1)) };
        const t = {
          txnId: 't',
          merchantIdentifier: 'm',
          orderId: 'o',
          amountPaise,
          instrument,
          successAt: new Date(0),
          bankRefNum: null,
          refunds: refunds.map((r) => ({ ...r })),
        };
        const line = refundLine(t, index, p, charged, ctx);
        fee -= line.feePaise;
        tax -= line.taxPaise;
      });
      assert.deepEqual(
        { fee, tax },
        { fee: charged.feePaise, tax: charged.taxPaise },
        `sale ${amountPaise}, parts ${parts}, order ${order}`,
      );
    }
  });
});
