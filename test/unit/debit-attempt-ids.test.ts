import { strict as assert } from 'node:assert';
import { debitAttemptId, debitTxnIdsOf } from '../../src/domain/mandate';

describe("a mandate debit's bank request ids", () => {
  it('the first attempt is the txnId, retry n is <txnId>R<n>, and each reads back to its txnId', () => {
    assert.equal(debitAttemptId('MX98MD6A0f3e', 0), 'MX98MD6A0f3e');
    assert.equal(debitAttemptId('MX98MD6A0f3e', 2), 'MX98MD6A0f3eR2');
    assert.deepEqual(debitTxnIdsOf('MX98MD6A0f3e'), ['MX98MD6A0f3e']);
    assert.deepEqual(debitTxnIdsOf('MX98MD6A0f3eR2'), ['MX98MD6A0f3eR2', 'MX98MD6A0f3e']);
  });

  it('a txnId that itself ends in R and digits is read as itself first, then as a retry', () => {
    const txnId = `MX98MD6R${'4'.repeat(12)}`;
    assert.deepEqual(debitTxnIdsOf(txnId), [txnId, 'MX98MD6']);
    assert.deepEqual(debitTxnIdsOf(debitAttemptId(txnId, 1)), [`${txnId}R1`, txnId]);
  });
});
