import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import type { Transaction } from '../../src/domain/transaction';
import { approvedEndSuccess, refundsBounded, webhooksFaithful, type Books } from '../support/money-model/invariants';
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
});
