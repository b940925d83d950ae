import { Counter, type Registry } from 'prom-client';
import type { Transaction } from '../domain/transaction';
import { PageKeysets, type RecordCursor, type SortKey } from '../domain/page-keysets';
import { StreamedPage } from './operation';
import type { PageShape } from './page-stream';

/**
 * How far a write's updatedAt may lie before the moment it becomes readable: clocks of the API and
 * the workers apart, a write in flight while a page is read. A keyset is trusted only if nothing
 * under it was written since its page was read, less this.
 */
const WRITE_MARGIN_MS = 60_000;

/** A paged query as the contract asks it, without its pageNumber: what a walk's keysets are kept under. */
export interface WalkQuery {
  merchantIdentifier: string;
  from: Date;
  until: Date;
  [more: string]: unknown;
}

/** Whether any of the merchant's transactions whose `field` lies in [from, upTo] was written at or after `since`. */
export type WrittenSince = (q: {
  merchantIdentifier: string;
  field: 'createdAt' | 'successAt';
  from: Date;
  upTo: Date;
  since: Date;
}) => Promise<boolean>;

/**
 * Walks of the ledger or the bulk API page by page (pageNumber in the contract): page N+1 of a query
 * continues after the last record of page N, when this process served page N and none of the
 * merchant's transactions up to that record has been written since (otherwise, or when page N was
 * not served here, the page is read with skip, as before: the same records either way). So a walk
 * reads each record once instead of reading every page before the one asked for.
 */
export function pageWalks(
  writtenSince: WrittenSince,
  metrics: Registry,
  api: 'ledger' | 'bulk',
  field: 'createdAt' | 'successAt',
) {
  const keysets = new PageKeysets();
  const reads = pageReadsCounter(metrics);
  /** The sort key page `pageNumber` starts after, when it may continue from there. */
  async function startOf(query: WalkQuery, pageNumber: number): Promise<SortKey | undefined> {
    if (pageNumber === 1) return undefined;
    const keyset = keysets.startOf(query, pageNumber);
    if (!keyset) {
      reads.inc({ api, read: 'skip' });
      return undefined;
    }
    const stale = await writtenSince({
      merchantIdentifier: query.merchantIdentifier,
      field,
      from: query.from,
      upTo: keyset.at,
      since: new Date(keyset.readAt.getTime() - WRITE_MARGIN_MS),
    });
    reads.inc({ api, read: stale ? 'stale keyset, skip' : 'keyset' });
    return stale ? undefined : { at: keyset.at, txnId: keyset.txnId };
  }
  /** Notes where page `pageNumber` (read from `readAt`) ended, when a further record exists. */
  function ended(query: WalkQuery, pageNumber: number, readAt: Date, last: Transaction): void {
    const at = last[field];
    if (at) keysets.remember(query, pageNumber + 1, { at, txnId: last.txnId, readAt });
  }
  return {
    /**
     * Page `pageNumber` of `query`, streamed as it is read: from where the walk stopped when it may
     * continue there, else with skip. One record more than the page is read, only to learn whether
     * a further record exists and where the next page starts.
     */
    async page(
      query: WalkQuery & { pageSize: number },
      pageNumber: number,
      readAt: Date,
      read: (window: PageWindow) => RecordCursor<Transaction>,
      shape: Omit<PageShape<Transaction>, 'pageSize' | 'onFullPage'>,
    ): Promise<StreamedPage<Transaction>> {
      const after = await startOf(query, pageNumber);
      const cursor = read({ skip: after ? 0 : (pageNumber - 1) * query.pageSize, limit: query.pageSize + 1, after });
      return new StreamedPage(cursor, {
        ...shape,
        pageSize: query.pageSize,
        onFullPage: (last) => ended(query, pageNumber, readAt, last),
      });
    },
  };
}

/** Where a page's read starts and how many records it reads. */
export interface PageWindow {
  skip: number;
  limit: number;
  after: SortKey | undefined;
}

/** One counter per registry, however many apps are built on it. */
function pageReadsCounter(metrics: Registry): Counter<'api' | 'read'> {
  const name = 'api_page_reads_total';
  return (
    (metrics.getSingleMetric(name) as Counter<'api' | 'read'> | undefined) ??
    new Counter({
      name,
      help: 'Pages after the first read by the ledger and bulk APIs: from a keyset, or with skip (no keyset, or a stale one)',
      labelNames: ['api', 'read'],
      registers: [metrics],
    })
  );
}
