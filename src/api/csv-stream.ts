import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Context } from 'koa';
import { readFirst } from './page-stream';

/**
 * A field of a record as one CSV cell: lists and objects (refundDetail) as their JSON text, null as
 * empty, and text a spreadsheet would run as a formula neutralised (spreadsheetSafe).
 */
const cell = (v: unknown) => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return spreadsheetSafe(JSON.stringify(v));
  return typeof v === 'string' ? spreadsheetSafe(v) : v;
};

/**
 * Formula injection (OWASP, CSV Injection): a cell starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is run as a formula by spreadsheet programs, so a payer's name or a product text
 * of `=HYPERLINK(...)` would act in staff's spreadsheet. Such a cell gets a leading `'` (shown as
 * text, not run). A plain number (`-250.00`, `+91`) is no formula and stays as it is.
 */
export function spreadsheetSafe(text: string): string {
  if (!/^[=+\-@\t\r]/.test(text) || /^[+-]?\d+(\.\d+)?$/.test(text)) return text;
  return `'${text}`;
}

/** A CSV download's name, its columns (the records' own field order) and how a stored item becomes a record. */
export interface CsvShape<T, R extends object> {
  filename: string;
  columns: readonly (keyof R & string)[];
  record: (t: T) => R;
}

/**
 * Answers with a CSV download streamed from a store cursor, one row per record in the columns given
 * (the records' own field order): a header row, then rows as the cursor yields them, never the
 * whole file in memory. The first record is read before the status line is sent, so a store that
 * is down gets its proper error answer; a failure later aborts the response (never a short file
 * that looks whole).
 */
export async function respondWithCsv<T, R extends object>(
  ctx: Context,
  cursor: AsyncIterable<T> & { close(): Promise<void> },
  o: CsvShape<T, R>,
): Promise<void> {
  const { iterator, first } = await readFirst(cursor);
  async function* rows(): AsyncGenerator<unknown[]> {
    try {
      for (let next = first; !next.done; next = await iterator.next()) {
        const r = o.record(next.value) as Record<string, unknown>;
        yield o.columns.map((c) => cell(r[c]));
      }
    } finally {
      await cursor.close().catch(() => undefined);
    }
  }
  ctx.status = 200;
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set('Content-Disposition', `attachment; filename="${o.filename}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // A cell holding `;` is quoted too: Excel in locales whose list separator is `;` would split it there.
  const csv = stringify({ header: true, columns: [...o.columns], quoted_match: ';' });
  // The response stream is destroyed with the error, so the client sees an aborted download.
  ctx.body = pipeline(Readable.from(rows()), csv, () => undefined);
}
