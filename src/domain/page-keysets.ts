import { createHash } from 'node:crypto';

/** A record's place in a page order: its date (createdAt or successAt), then its txnId. */
export interface SortKey {
  at: Date;
  txnId: string;
}

/** Records read one by one as a page streams, closed once the page is written (or abandoned). */
export type RecordCursor<T> = AsyncIterable<T> & { close(): Promise<void> };

/**
 * Where a page of a walk ended: the sort key of its last record (`at` is the date the pages are
 * sorted by, then `txnId`) and when that page was read. The next page of the same query continues
 * after it instead of skipping every record before it, once the records are checked unchanged
 * since (TransactionRepository.writtenSince).
 */
export interface PageKeyset {
  at: Date;
  txnId: string;
  readAt: Date;
}

/**
 * The keysets of recent walks in this API process, by query and page number: the least recently
 * used go once `max` are held. Another replica's walk, or one older than the entries kept, finds
 * none and reads its page the plain way (the same records, at the cost of skipping to them).
 */
export class PageKeysets {
  private readonly entries = new Map<string, PageKeyset>();

  constructor(private readonly max = 10_000) {}

  /** The keyset where page `pageNumber - 1` of `query` ended, if this process served it. */
  startOf(query: object, pageNumber: number): PageKeyset | undefined {
    const key = keyOf(query, pageNumber);
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  /** Notes where page `pageNumber - 1` of `query` ended, for a walk that asks for page `pageNumber` next. */
  remember(query: object, pageNumber: number, keyset: PageKeyset): void {
    const key = keyOf(query, pageNumber);
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, keyset);
  }
}

const keyOf = (query: object, pageNumber: number) =>
  `${createHash('sha256').update(JSON.stringify(query)).digest('base64url')}:${pageNumber}`;
