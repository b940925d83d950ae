import { Readable } from 'node:stream';
import type { Context } from 'koa';

/** Chunks of about this size go to the socket: fewer writes than one per record. */
const CHUNK_CHARS = 64 * 1024;

export interface PageShape<T> {
  /** How many records the page holds; the cursor is asked for one more to learn if a next page exists. */
  pageSize: number;
  /** The body when the page has no record. */
  empty: () => string;
  /** The text before the first record, e.g. `{"success":true,"data":{"transactions":[`. */
  open: string;
  /** The text after the last record, knowing whether a further record exists. */
  close: (hasNextPage: boolean) => string;
  serialize: (record: T) => string;
  /** Called with the page's last record when a further record exists (where a walk's next page starts). */
  onFullPage?: (last: T) => void;
}

/**
 * Reads a cursor's first record before anything is answered, so that a store that is down still gets
 * its proper error answer (the cursor is closed then); the rest is read from the iterator returned.
 */
export async function readFirst<T>(cursor: AsyncIterable<T> & { close(): Promise<void> }) {
  const iterator = cursor[Symbol.asyncIterator]();
  try {
    return { iterator, first: await iterator.next() };
  } catch (e) {
    await cursor.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Answers with a JSON page streamed from a store cursor: records are serialised as they arrive and
 * written in chunks, so a 10,000-record page is never held in memory whole (neither as documents nor
 * as text). The first record is read before the status line is sent, so a store that is down still
 * gets its proper error answer; a failure after that aborts the response (a client never takes a
 * truncated page for a whole one).
 */
export async function respondWithPage<T>(
  ctx: Context,
  cursor: AsyncIterable<T> & { close(): Promise<void> },
  shape: PageShape<T>,
) {
  const { iterator, first } = await readFirst(cursor);
  ctx.type = 'application/json; charset=utf-8';
  if (first.done) {
    ctx.body = shape.empty();
    return;
  }
  const firstRecord = first.value;
  async function* chunks(): AsyncGenerator<string> {
    try {
      let chunk = shape.open + shape.serialize(firstRecord);
      let count = 1;
      let last = firstRecord;
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        if (count === shape.pageSize) {
          shape.onFullPage?.(last);
          chunk += shape.close(true);
          yield chunk;
          return;
        }
        chunk += ',' + shape.serialize(next.value);
        last = next.value;
        count++;
        if (chunk.length >= CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
      yield chunk + shape.close(false);
    } finally {
      await cursor.close().catch(() => undefined);
    }
  }
  ctx.body = Readable.from(chunks(), { objectMode: false });
}
