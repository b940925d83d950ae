import { parse } from 'csv-parse/sync';
import { MAX_AMOUNT_PAISE, type Paise } from './money';
import { mayBecomeDelayedSuccess, type Transaction } from './transaction';

/** One usable line of a bank reconciliation file. */
export interface ReconciliationRow {
  line: number;
  txnId: string;
  bankRefNum: string | null;
  status: 'SUCCESS' | 'FAILED';
  amountPaise: Paise;
}

export interface Rejection {
  line: number;
  reason: string;
}

export const RECONCILIATION_HEADER = ['txnId', 'bankRefNum', 'status', 'amount'] as const;

export class ReconciliationFileError extends Error {}

/**
 * Parses a file `txnId,bankRefNum,status,amount` (status SUCCESS or FAILED, amount in paise). A bad
 * header refuses the whole file; a bad line is a rejection with its reason and the rest still apply.
 */
export function parseReconciliationFile(text: string): { rows: ReconciliationRow[]; rejected: Rejection[]; lines: number } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      // No field of the format holds a comma or a quote: a quote is just a character of a bad line.
      quote: false,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      record_delimiter: ['\r\n', '\n'],
      info: true,
    }) as unknown as typeof records;
  } catch (e) {
    throw new ReconciliationFileError(`not a CSV file: ${(e as Error).message.split('\n')[0].slice(0, 200)}`);
  }
  const [header, ...body] = records;
  if (!header || header.record.join(',') !== RECONCILIATION_HEADER.join(',')) {
    throw new ReconciliationFileError(`the first line must be ${RECONCILIATION_HEADER.join(',')}`);
  }
  const rows: ReconciliationRow[] = [];
  const rejected: Rejection[] = [];
  for (const { record, info } of body) {
    const row = parseRow(record, info.lines);
    if ('reason' in row) rejected.push(row);
    else rows.push(row);
  }
  return { rows, rejected, lines: body.length };
}

function parseRow(fields: string[], line: number): ReconciliationRow | Rejection {
  if (fields.length !== 4) return { line, reason: `expected 4 columns, found ${fields.length}` };
  const [txnId, bankRefNum, status, amount] = fields as [string, string, string, string];
  if (!/^[0-9A-Za-z]{1,40}$/.test(txnId)) return { line, reason: 'txnId must be 1-40 letters and digits' };
  if (!/^[0-9A-Za-z-]{0,40}$/.test(bankRefNum)) return { line, reason: 'bankRefNum must be at most 40 letters, digits and -' };
  if (status !== 'SUCCESS' && status !== 'FAILED') return { line, reason: 'status must be SUCCESS or FAILED' };
  if (status === 'SUCCESS' && bankRefNum === '') return { line, reason: 'a SUCCESS line needs its bankRefNum' };
  if (!/^\d{1,9}$/.test(amount) || Number(amount) < 1 || Number(amount) > MAX_AMOUNT_PAISE) {
    return { line, reason: `amount must be whole paise, 1 to ${MAX_AMOUNT_PAISE}` };
  }
  return { line, txnId, bankRefNum: bankRefNum || null, status, amountPaise: Number(amount) };
}

/** What a line means for the transaction it names (design.md, Reconciliation). */
export type RowVerdict =
  | { kind: 'rejected'; reason: string }
  | { kind: 'unchanged' }
  /** The payment workflow still waits for the bank: it gets the answer. */
  | { kind: 'answerWaitingPayment'; approved: boolean }
  /** A Failure no bank decided (mayBecomeDelayedSuccess) that the bank reports as paid. */
  | { kind: 'delayedSuccess' };

export function judgeRow(row: ReconciliationRow, t: Transaction | undefined): RowVerdict {
  if (!t) return { kind: 'rejected', reason: 'unknown txnId' };
  if (t.amountPaise !== row.amountPaise)
    return { kind: 'rejected', reason: `amount differs: the gateway has ${t.amountPaise} paise` };
  if (t.status === 'Pending') return { kind: 'answerWaitingPayment', approved: row.status === 'SUCCESS' };
  const succeeded = t.status !== 'Failure';
  if (row.status === 'SUCCESS') {
    if (succeeded) return { kind: 'unchanged' };
    return mayBecomeDelayedSuccess(t)
      ? { kind: 'delayedSuccess' }
      : { kind: 'rejected', reason: 'the bank declined this transaction: a final answer is not revised' };
  }
  return succeeded
    ? { kind: 'rejected', reason: `the transaction is ${t.status}: a final answer is not revised` }
    : { kind: 'unchanged' };
}

export type ReconciliationState = 'running' | 'done';

/** A reconciliation file's report: its lines applied, unchanged and rejected. */
export interface ReconciliationReport {
  reconciliationId: string;
  state: ReconciliationState;
  rows: number;
  applied: number;
  unchanged: number;
  rejected: Rejection[];
}
