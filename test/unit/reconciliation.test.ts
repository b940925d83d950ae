import { strict as assert } from 'node:assert';
import { MAX_AMOUNT_PAISE } from '../../src/domain/money';
import {
  judgeRow,
  parseReconciliationFile,
  ReconciliationFileError,
  type ReconciliationRow,
} from '../../src/domain/reconciliation';
import type { Transaction } from '../../src/domain/transaction';

const HEADER = 'txnId,bankRefNum,status,amount';

describe('reconciliation files (domain)', () => {
  it('reads the lines of a file, a BOM, CRLF, blank lines and spaces around fields aside', () => {
    const text = `\uFEFF${HEADER}\r\nZP1,RRN-1,SUCCESS,10000\r\n\r\n ZP2 , ,FAILED, 900\n`;
    assert.deepEqual(parseReconciliationFile(text), {
      rows: [
        { line: 2, txnId: 'ZP1', bankRefNum: 'RRN-1', status: 'SUCCESS', amountPaise: 10_000 },
        { line: 4, txnId: 'ZP2', bankRefNum: null, status: 'FAILED', amountPaise: 900 },
      ],
      rejected: [],
      lines: 2,
    });
  });

  it('rejects a bad line with its number and reason, and still takes the others', () => {
    const lines = [
      'ZP1,RRN1,SUCCESS,100',
      'ZP2,RRN2,SUCCESS',
      'ZP_3,RRN3,SUCCESS,100',
      'ZP4,RRN 4,SUCCESS,100',
      'ZP5,RRN5,PAID,100',
      'ZP6,,SUCCESS,100',
      'ZP7,RRN7,FAILED,0',
      `ZP8,RRN8,FAILED,${MAX_AMOUNT_PAISE + 1}`,
      'ZP9,RRN9,FAILED,1.50',
      '"ZP10",RRN10,FAILED,100',
    ];
    const { rows, rejected } = parseReconciliationFile([HEADER, ...lines].join('\n'));
    assert.deepEqual(
      rows.map((r) => r.txnId),
      ['ZP1'],
    );
    assert.deepEqual(rejected, [
      { line: 3, reason: 'expected 4 columns, found 3' },
      { line: 4, reason: 'txnId must be 1-40 letters and digits' },
      { line: 5, reason: 'bankRefNum must be at most 40 letters, digits and -' },
      { line: 6, reason: 'status must be SUCCESS or FAILED' },
      { line: 7, reason: 'a SUCCESS line needs its bankRefNum' },
      { line: 8, reason: `amount must be whole paise, 1 to ${MAX_AMOUNT_PAISE}` },
      { line: 9, reason: `amount must be whole paise, 1 to ${MAX_AMOUNT_PAISE}` },
      { line: 10, reason: `amount must be whole paise, 1 to ${MAX_AMOUNT_PAISE}` },
      { line: 11, reason: 'txnId must be 1-40 letters and digits' },
    ]);
  });

  it('refuses a whole file without its header line', () => {
    for (const text of ['', 'ZP1,RRN1,SUCCESS,100', 'txnId,status,bankRefNum,amount\nZP1,SUCCESS,RRN1,100'])
      assert.throws(
        () => parseReconciliationFile(text),
        (e: unknown) => e instanceof ReconciliationFileError && /first line must be/.test(e.message),
      );
  });
});

describe('what a reconciliation line means (domain)', () => {
  const row = (status: 'SUCCESS' | 'FAILED', amountPaise = 10_000): ReconciliationRow => ({
    line: 2,
    txnId: 'ZP1',
    bankRefNum: status === 'SUCCESS' ? 'RRN1' : null,
    status,
    amountPaise,
  });
  // judgeRow reads the amount, the status and how a Failure came to be.
  const txn = (t: Pick<Transaction, 'status' | 'markedFailedByService' | 'responseCode'>) =>
    ({ amountPaise: 10_000, ...t }) as Transaction;
  const bankDeclined = txn({ status: 'Failure', markedFailedByService: false, responseCode: '1022' });
  const noAnswer = txn({ status: 'Failure', markedFailedByService: true, responseCode: '1023' });
  const paid = txn({ status: 'Success', markedFailedByService: false, responseCode: '100' });
  const pending = txn({ status: 'Pending', markedFailedByService: false, responseCode: '208' });

  it('refuses a line for an unknown transaction or another amount', () => {
    assert.deepEqual(judgeRow(row('SUCCESS'), undefined), { kind: 'rejected', reason: 'unknown txnId' });
    assert.deepEqual(judgeRow(row('SUCCESS', 9_999), paid), {
      kind: 'rejected',
      reason: 'amount differs: the gateway has 10000 paise',
    });
  });

  it('a payment still waiting for the bank gets the answer', () => {
    assert.deepEqual(judgeRow(row('SUCCESS'), pending), { kind: 'answerWaitingPayment', approved: true });
    assert.deepEqual(judgeRow(row('FAILED'), pending), { kind: 'answerWaitingPayment', approved: false });
  });

  it('a line agreeing with the final answer changes nothing', () => {
    assert.deepEqual(judgeRow(row('SUCCESS'), paid), { kind: 'unchanged' });
    assert.deepEqual(
      judgeRow(row('SUCCESS'), txn({ status: 'PartialRefund', markedFailedByService: false, responseCode: '100' })),
      {
        kind: 'unchanged',
      },
    );
    assert.deepEqual(judgeRow(row('FAILED'), bankDeclined), { kind: 'unchanged' });
  });

  it('a paid line makes a Failure no bank decided a delayed success; a bank decline or a success is never revised', () => {
    assert.deepEqual(judgeRow(row('SUCCESS'), noAnswer), { kind: 'delayedSuccess' });
    assert.deepEqual(judgeRow(row('SUCCESS'), bankDeclined), {
      kind: 'rejected',
      reason: 'the bank declined this transaction: a final answer is not revised',
    });
    assert.deepEqual(judgeRow(row('FAILED'), paid), {
      kind: 'rejected',
      reason: 'the transaction is Success: a final answer is not revised',
    });
  });
});
