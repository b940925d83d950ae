import { strict as assert } from 'node:assert';
import { canTransition, statesThatMayBecome, TxnStatus, type TxnStatusName } from '../../src/domain/txn-status';

describe('transaction status codes and transitions', () => {
  it('keeps the contract codes', () => {
    assert.deepEqual(TxnStatus, {
      Success: 0,
      Failure: 1,
      Pending: 2,
      Refund: 3,
      PartialRefund: 4,
      ChargebackReverted: 5,
      Chargeback: 6,
      PartialChargebackReverted: 7,
      PartialChargeback: 8,
    });
  });

  it('allows exactly the transitions of the design rulings', () => {
    const allowed: [TxnStatusName, TxnStatusName][] = [
      ['Pending', 'Success'],
      ['Pending', 'Failure'],
      ['Failure', 'Success'],
      ['Success', 'PartialRefund'],
      ['Success', 'Refund'],
      ['PartialRefund', 'PartialRefund'],
      ['PartialRefund', 'Refund'],
      ['Success', 'PartialChargeback'],
      ['Success', 'Chargeback'],
      ['PartialChargeback', 'PartialChargebackReverted'],
      ['Chargeback', 'ChargebackReverted'],
    ];
    const names = Object.keys(TxnStatus) as TxnStatusName[];
    for (const from of names) {
      for (const to of names) {
        const expected = allowed.some(([f, t]) => f === from && t === to);
        assert.equal(canTransition(from, to), expected, `${from} -> ${to}`);
      }
    }
  });

  it('a Success can come only from Pending or a service-marked Failure', () => {
    assert.deepEqual(statesThatMayBecome('Success').sort(), ['Failure', 'Pending']);
    assert.deepEqual(statesThatMayBecome('Failure'), ['Pending']);
  });
});
