import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Context } from 'koa';
import { readFirst } from './page-stream';

/** A field of a record as one CSV cell: lists and objects (refundDetail) as their JSON text, null as empty. */
const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : v);

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
  o: { filename: string; columns: readonly (keyof R & string)[]; record: (t: T) => R },
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
  const csv = stringify({ header: true, columns: [...o.columns] });
  // The response stream is destroyed with the error, so the client sees an aborted download.
  ctx.body = pipeline(Readable.from(rows()), csv, () => undefined);
}
