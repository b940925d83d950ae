import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import type { Transaction } from '../../src/domain/transaction';
import type { Settlement, SettlementLine } from '../../src/domain/settlement';
import { approvedEndSuccess, refundsBounded, webhooksFaithful, type Books } from '../support/money-model/invariants';
import { balances, paidOnce, settledOnce, type PayoutAtBank } from '../support/money-model/settlement-invariants';
import { feesExact } from '../support/money-model/fees';
import type { World } from '../support/money-model/world';

/**
 * The money model's checker on books made up here: each invariant must name the violation it
 * exists for (a checker that finds nothing would pass every sequence).
 */
describe('money model checker: each invariant catches its violation', () => {
  const conducts = new Map<string, string>();
  const calls: { url: string; receivedAt: number; headers: Record<string, string>; body: string }[] = [];
  const world = {
    merchant: { merchantIdentifier: 'm1' },
    keys: [
      { secretKey: 'old-key', since: 0 },
      { secretKey: 'new-key', since: 10_000 },
    ],
    stack: { bank: { conduct: { conductOf: (txnId: string) => conducts.get(txnId) } }, receiver: { calls } },
  } as unknown as World;

  const txn = (over: Partial<Transaction>): Transaction =>
    ({
      txnId: 'T1',
      orderId: 'o1',
      amountPaise: 10_000,
      status: 'Success',
      responseCode: '100',
      refunds: [],
      instrument: { kind: 'UPI' },
      ...over,
    }) as Transaction;
  const approved = (txnId: string, amountPaise = 10_000) => ({
    request: { txnId, amountPaise, merchantIdentifier: 'm1' },
    answer: { status: 'APPROVED', bankRefNum: '1' },
  });
  const books = (b: Partial<Books>): Books => ({ payments: [], refunds: [], callbacks: [], ...b }) as Books;

  it('(1) an approval the bank told of, held as Failure; a Success the bank never approved', () => {
    const stored = new Map([['T1', txn({ status: 'Failure', responseCode: '1023' })]]);
    assert.match(
      approvedEndSuccess(world, books({ payments: [approved('T1')] as never }), stored, false).join(),
      /bank approved T1/,
    );
    conducts.set('T1', 'inquiryPending');
    assert.deepEqual(
      approvedEndSuccess(world, books({ payments: [approved('T1')] as never }), stored, false),
      [],
      'excused until the file',
    );
    assert.match(
      approvedEndSuccess(world, books({ payments: [approved('T1')] as never }), stored, true).join(),
      /after the bank file/,
    );
    assert.match(approvedEndSuccess(world, books({}), new Map([['T1', txn({})]]), true).join(), /never approved/);
  });

  it('(2) refunds above what was paid, and a bank refund the gateway does not hold', () => {
    const stored = new Map([
      [
        'T1',
        txn({
          refunds: [
            { merchantRefId: 'r1', amountPaise: 10_000, status: 'SUCCESS' },
            { merchantRefId: 'r2', amountPaise: 1, status: 'PENDING' },
          ] as never,
        }),
      ],
    ]);
    const bankRefund = (id: string, amountPaise: number) => ({
      request: { refundId: `T1:${id}`, txnId: 'T1', amountPaise },
      answer: { status: 'APPROVED' },
    });
    const found = refundsBounded(
      books({ payments: [approved('T1')] as never, refunds: [bankRefund('r1', 10_000), bankRefund('r9', 5)] as never }),
      stored,
    );
    assert.match(found.join('\n'), /exceed the 10000 paid/);
    assert.match(found.join('\n'), /does not hold/);
    assert.match(found.join('\n'), /more than it took/);
  });

  it('(4) a final order never announced, a call signed with a retired key, a retry with other bytes', () => {
    const txnData = JSON.stringify({ txns: [{ orderId: 'o1', responseCode: '100' }] });
    const call = (receivedAt: number, key: string, data = txnData) => ({
      url: '/hooks/payments/m1?realtime=true',
      receivedAt,
      headers: { 'x-webhook-id': 'rt:m1:o1', 'x-webhook-attempt': '1' },
      body: JSON.stringify({ txnData: data, checksum: hmacSha256Hex(key, data) }),
    });
    const stored = new Map([['T1', txn({})]]);
    assert.match(webhooksFaithful(world, stored).join(), /the receiver got \[\]/);
    calls.push(call(5_000, 'old-key'), call(11_000, 'old-key'));
    assert.deepEqual(webhooksFaithful(world, stored), [], 'the old key a moment after the rotation: a call already on its way');
    calls.push(call(60_000, 'old-key'));
    assert.match(webhooksFaithful(world, stored).join(), /does not verify with the key in force \(key #2\)/);
    calls.push(call(61_000, 'new-key', JSON.stringify({ txns: [{ orderId: 'o1', responseCode: '100' }], again: true })));
    assert.match(webhooksFaithful(world, stored).join(), /changed its txnData/);
  });

  it("(4) a chargeback's non-real-time entry does not announce the order's outcome", () => {
    calls.length = 0;
    const txnData = JSON.stringify({ txns: [{ orderid: 'o1', chargebackAmount: 4000, txnStatus: '8' }], refunds: [] });
    calls.push({
      url: '/hooks/payments/m1',
      receivedAt: 20_000,
      headers: { 'x-webhook-id': 'cb:m1:o1', 'x-webhook-attempt': '1' },
      body: JSON.stringify({ txnData, checksum: hmacSha256Hex('new-key', txnData) }),
    });
    assert.match(
      webhooksFaithful(world, new Map([['T1', txn({ status: 'PartialChargeback' })]])).join(),
      /the receiver got \[\]/,
    );
  });

  const settlement = (id: string, over: Partial<Settlement> = {}) =>
    ({ _id: id, merchantIdentifier: 'm1', state: 'paid', netPaise: 9_764, carriedOutPaise: 0, utr: 'U1', ...over }) as Settlement;
  const saleLine = (settlementId: string, over: Partial<SettlementLine> = {}) =>
    ({
      _id: 'SALE:T1:m1',
      settlementId,
      merchantIdentifier: 'm1',
      txnId: 'T1',
      action: 'SALE',
      amountPaise: 10_000,
      feePaise: 200,
      taxPaise: 36,
      settlementAmountPaise: 9_764,
      ...over,
    }) as SettlementLine;
  const sold = (over: Partial<Transaction> = {}) =>
    new Map([['T1', txn({ merchantIdentifier: 'm1', successAt: new Date(0), saleSettlementId: 'S1', ...over })]]);

  it('(6) money settled and unsettled differs from what was paid, or a paid net from its lines', () => {
    assert.deepEqual(balances('m1', sold(), [saleLine('S1')], [settlement('S1')]), []);
    assert.match(balances('m1', sold(), [], [settlement('S1')]).join(), /settled 0 \+ unsettled 0 paise != .* 10000/);
    assert.match(
      balances('m1', sold(), [saleLine('S1')], [settlement('S1', { netPaise: 9_000 })]).join(),
      /paid 9000 \+ carried 0/,
    );
  });

  it('(6) a fee other than the plan says, and a split share settled to the master', () => {
    const plan = {
      upi: { percentBps: 200, fixedPaise: 0 },
      card: { debit: { percentBps: 1, fixedPaise: 0 }, credit: { percentBps: 1, fixedPaise: 0 } },
      netbanking: { percentBps: 1, fixedPaise: 0 },
      wallet: { percentBps: 1, fixedPaise: 0 },
      refundReturnsFee: false,
    };
    const upi = sold({ instrument: { kind: 'UPI' } as Transaction['instrument'] });
    assert.deepEqual(feesExact(plan, upi, [saleLine('S1')]), []);
    assert.match(
      feesExact({ ...plan, upi: { percentBps: 199, fixedPaise: 0 } }, upi, [saleLine('S1')]).join(),
      /the plan says 199 \+ 36/,
    );
    const split = sold({
      split: {
        masterMerchantIdentifier: 'm1',
        shares: [
          { merchantIdentifier: 'm1', amountPaise: 6_000 },
          { merchantIdentifier: 'm2', amountPaise: 4_000 },
        ],
      } as Transaction['split'],
    });
    assert.match(
      settledOnce(split, [saleLine('S1')], [settlement('S1')], true).join(),
      /line of 10000 paise for an event of 6000/,
    );
    assert.match(settledOnce(split, [saleLine('S1')], [settlement('S1')], true).join(), /SALE:T1:m2 .* has no line/);
  });

  it('(7) an event settled in another settlement than its claim, a line without a claim, a claim without its line', () => {
    assert.deepEqual(settledOnce(sold(), [saleLine('S1')], [settlement('S1')], true), []);
    assert.match(settledOnce(sold(), [saleLine('S2')], [settlement('S1')], true).join(), /claimed by S1, its line is in S2/);
    assert.match(
      settledOnce(sold({ saleSettlementId: undefined }), [saleLine('S1')], [], false).join(),
      /no order says was claimed/,
    );
    assert.match(settledOnce(sold(), [], [settlement('S1')], true).join(), /has no line/);
    assert.deepEqual(
      settledOnce(sold(), [], [settlement('S1', { state: 'open' })], false),
      [],
      'a claim waits for its line while settling',
    );
  });

  it('(8) a payout the bank paid while the gateway holds it refused, a paid settlement the bank never paid', () => {
    const payout = (status: string, amountPaise = 9_764): PayoutAtBank =>
      ({
        request: { payoutId: 'S1', merchantIdentifier: 'm1', amountPaise },
        answer: { status, utr: status === 'PAID' ? 'U1' : null },
      }) as PayoutAtBank;
    assert.deepEqual(paidOnce([payout('PAID')], [settlement('S1')], true), []);
    assert.match(paidOnce([payout('PAID')], [settlement('S1', { state: 'payout_refused' })], true).join(), /the bank paid S1/);
    assert.match(paidOnce([], [settlement('S1')], true).join(), /the bank paid no such payout/);
    assert.match(paidOnce([payout('PAID', 5)], [settlement('S1')], true).join(), /the bank paid 5/);
    assert.deepEqual(paidOnce([payout('PAID')], [settlement('S1', { state: 'payout_requested' })], false), [], 'still answering');
  });
});
