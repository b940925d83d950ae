import { strict as assert } from 'node:assert';
import { decideChargeback } from '../../src/domain/chargeback';
import type { Transaction } from '../../src/domain/transaction';

// decideChargeback reads only the status, the amount and the chargeback of the transaction.
const txn = (t: Pick<Transaction, 'status' | 'amountPaise' | 'chargeback'>) => t as Transaction;
const raisedAt = new Date('2026-03-01T10:00:00Z');
const revertedAt = new Date('2026-03-05T10:00:00Z');

describe('chargebacks (domain)', () => {
  it('a Success charged back in full becomes Chargeback, in part Partial Chargeback, recording amount and time', () => {
    assert.deepEqual(decideChargeback(txn({ status: 'Success', amountPaise: 10_000 }), 'raise', 10_000, raisedAt), {
      ok: true,
      status: 'Chargeback',
      chargeback: { amountPaise: 10_000, raisedAt, revertedAt: null },
    });
    assert.deepEqual(decideChargeback(txn({ status: 'Success', amountPaise: 10_000 }), 'raise', 2_500, raisedAt), {
      ok: true,
      status: 'PartialChargeback',
      chargeback: { amountPaise: 2_500, raisedAt, revertedAt: null },
    });
  });

  it('refuses a chargeback on anything but a Success, and one above the amount paid', () => {
    for (const status of ['Pending', 'Failure', 'Refund', 'PartialRefund', 'Chargeback', 'PartialChargeback'] as const) {
      assert.deepEqual(decideChargeback(txn({ status, amountPaise: 10_000 }), 'raise', 100, raisedAt), {
        ok: false,
        refusal: 'notAllowed',
      });
    }
    assert.deepEqual(decideChargeback(txn({ status: 'Success', amountPaise: 10_000 }), 'raise', 10_001, raisedAt), {
      ok: false,
      refusal: 'amountExceeds',
    });
  });

  it('a revert of the same amount makes Chargeback Reverted or Partial Chargeback Reverted, keeping when it was raised', () => {
    const full = { amountPaise: 10_000, raisedAt, revertedAt: null };
    assert.deepEqual(
      decideChargeback(txn({ status: 'Chargeback', amountPaise: 10_000, chargeback: full }), 'revert', 10_000, revertedAt),
      {
        ok: true,
        status: 'ChargebackReverted',
        chargeback: { amountPaise: 10_000, raisedAt, revertedAt },
      },
    );
    const part = { amountPaise: 2_500, raisedAt, revertedAt: null };
    assert.deepEqual(
      decideChargeback(txn({ status: 'PartialChargeback', amountPaise: 10_000, chargeback: part }), 'revert', 2_500, revertedAt),
      { ok: true, status: 'PartialChargebackReverted', chargeback: { amountPaise: 2_500, raisedAt, revertedAt } },
    );
  });

  it('refuses a revert of another amount, of a transaction never charged back, or reverted already', () => {
    const part = { amountPaise: 2_500, raisedAt, revertedAt: null };
    assert.deepEqual(
      decideChargeback(txn({ status: 'PartialChargeback', amountPaise: 10_000, chargeback: part }), 'revert', 2_000, revertedAt),
      { ok: false, refusal: 'amountDiffers' },
    );
    assert.deepEqual(decideChargeback(txn({ status: 'Success', amountPaise: 10_000 }), 'revert', 10_000, revertedAt), {
      ok: false,
      refusal: 'notAllowed',
    });
    // A Chargeback status without its record (never expected) is not reverted blindly.
    assert.deepEqual(decideChargeback(txn({ status: 'Chargeback', amountPaise: 10_000 }), 'revert', 10_000, revertedAt), {
      ok: false,
      refusal: 'notAllowed',
    });
    const reverted = { amountPaise: 10_000, raisedAt, revertedAt };
    assert.deepEqual(
      decideChargeback(
        txn({ status: 'ChargebackReverted', amountPaise: 10_000, chargeback: reverted }),
        'revert',
        10_000,
        revertedAt,
      ),
      { ok: false, refusal: 'notAllowed' },
    );
  });
});
