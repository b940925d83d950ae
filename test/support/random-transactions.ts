import { ObjectId } from 'mongodb';
import type { Condition, Doc, Query } from './query-reference';

/**
 * Random transaction-like documents and the gateway's query shapes over them, for the differential
 * test. Deterministic for a seed. Documents hold what the gateway writes and what it never writes
 * but a store must still answer right: dates tied to the millisecond, dates before 2001 (12 digits
 * of milliseconds), before 1970 (negative) and after 2286 (14 digits), numbers and strings where
 * dates belong, missing and null values, strings that JSON escapes, an ObjectId spelled like a
 * merchant's id, and (per scenario) arrays in some fields.
 */
export type Rng = () => number;

/** mulberry32: a small seeded generator. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const chance = (r: Rng, p: number) => r() < p;

export const HEX_MERCHANT = '0123456789abcdef01234567';
/** JSON escapes <, >, &, quotes, backslashes and U+2028; é stays as is. */
export const SPECIAL_MERCHANT = 'm<&>"\\é\u2028';
export const MERCHANTS = ['m1', 'm2', SPECIAL_MERCHANT, HEX_MERCHANT] as const;
const STATUSES = ['Success', 'Pending', 'Failure', 'PartialRefund', 'Refund'] as const;
const SUFFIXES = ['', '!', '"', '<', 'é', '\u2028', ' ', '\\'];

/** Milliseconds: ties in 2026, both ends of 12- and 13-digit dates, before 1970 and after 2286. */
const DATE_POOL = [
  Date.UTC(2026, 0, 1),
  Date.UTC(2026, 0, 1, 10),
  Date.UTC(2026, 0, 1, 10, 0, 0, 1),
  Date.UTC(2026, 0, 2),
  Date.UTC(2026, 0, 2, 18, 30),
  Date.UTC(2026, 0, 3),
  Date.UTC(2000, 5, 1),
  999_999_999_999,
  1_000_000_000_000,
  -86_400_000,
  0,
  5,
  9_999_999_999_999,
  10_000_000_000_000,
  Date.UTC(2400, 0, 1),
];

/** Dates no pool date is near: for documents that must not tie, and for updatedAt. */
const UNIQUE_DATES = Date.UTC(2026, 0, 5);
const UPDATED_DATES = Date.UTC(2026, 0, 10);

/** Fields that may hold arrays in a scenario (the gateway writes none of them as arrays). */
export const ARRAY_FIELDS = [
  'merchantIdentifier',
  'createdAt',
  'successAt',
  'status',
  'txnId',
  'delayedSuccess',
  'updatedAt',
] as const;
export type ArrayField = (typeof ARRAY_FIELDS)[number];

/**
 * `count` documents. Sort keys never tie completely (the order of complete ties is MongoDB's to
 * choose): txnId and updatedAt are unique, and a document whose txnId is missing, null or [] (which
 * sort alike) gets dates no other document has. At most one field of a document is an array
 * (MongoDB refuses to index two arrays of one document in a compound index).
 */
export function randomDocs(r: Rng, count: number, arrays: readonly ArrayField[]): Doc[] {
  const docs: Doc[] = [];
  for (let i = 0; i < count; i++) {
    const arrayField = arrays.length > 0 && chance(r, 0.15) ? pick(r, arrays) : undefined;
    const nullishTxn = i < 3 || chance(r, 0.02);
    // Apart from the pool's: 10 ms per document, unique below that.
    const date = (unique: number): number => {
      if (nullishTxn) return UNIQUE_DATES + i * 10 + unique;
      return pick(r, DATE_POOL) + (chance(r, 0.3) ? Math.floor(r() * 3) : 0);
    };
    // A date where the gateway writes one, sometimes a number or string of the same instant.
    const dateValue = (field: ArrayField, unique: number): unknown => {
      const ms = date(unique);
      if (arrayField === field) return pick(r, [[], [new Date(ms)], [new Date(ms), new Date(date(unique + 5))], [ms, 'x']]);
      return chance(r, 0.1) ? pick(r, [ms, new Date(ms).toISOString()]) : new Date(ms);
    };

    const merchant = pick(r, [...MERCHANTS, 'm1', 'm1', 'm1']);
    const doc: Doc = { _id: `d${i}` };
    doc.merchantIdentifier =
      arrayField === 'merchantIdentifier'
        ? pick(r, [[merchant], [merchant, 'm9'], [], ['m9']])
        : merchant === HEX_MERCHANT && chance(r, 0.3)
          ? new ObjectId(HEX_MERCHANT)
          : merchant;
    doc.createdAt = dateValue('createdAt', 1);
    if (nullishTxn) {
      const v = pick(r, ['missing', null, []] as const);
      if (v !== 'missing') doc.txnId = v;
    } else if (arrayField === 'txnId') {
      doc.txnId = [`A${i}b`, `A${i}a`];
    } else {
      doc.txnId = chance(r, 0.1) ? i : `T${i}${pick(r, SUFFIXES)}`;
    }
    doc.status = arrayField === 'status' ? pick(r, [['Success'], ['Pending', 'Success'], []]) : pick(r, STATUSES);
    const success = pick(r, ['missing', 'null', 'date', 'date', 'date'] as const);
    if (success === 'null') doc.successAt = null;
    if (success === 'date' || arrayField === 'successAt') doc.successAt = dateValue('successAt', 2);
    // Unique: the sweep sorts by sweptAt, then updatedAt.
    const updated = UPDATED_DATES + i * 10;
    doc.updatedAt =
      arrayField === 'updatedAt' ? [new Date(updated + 2), new Date(updated + 1)] : chance(r, 0.1) ? updated : new Date(updated);
    const swept = pick(r, ['missing', 'missing', 'null', 'date', 'number', 'string'] as const);
    if (swept !== 'missing') {
      const ms = pick(r, DATE_POOL);
      doc.sweptAt = { null: null, date: new Date(ms), number: ms, string: String(ms) }[swept];
    }
    const refunds = randomRefunds(r);
    if (refunds !== undefined) doc.refunds = refunds;
    if (refunds !== undefined && chance(r, 0.5)) doc.refundsSweptAt = new Date(pick(r, DATE_POOL));
    if (arrayField === 'delayedSuccess') doc.delayedSuccess = pick(r, [[true], [false, true], [false], []]);
    else if (chance(r, 0.3)) doc.delayedSuccess = chance(r, 0.5);
    docs.push(doc);
  }
  return docs;
}

const REFUND_STATES = ['SUCCESS', 'PENDING', 'FAILED'] as const;

/**
 * refunds as the gateway writes them (an array of documents with a status), and what a path
 * `refunds.status` must see through or not: a document instead of an array, a status array,
 * strings in the array, a lower-case value, other keys that contain "status", a status deeper down.
 */
function randomRefunds(r: Rng): unknown {
  const refund = () => ({ merchantRefId: `r${Math.floor(r() * 1e6)}`, status: pick(r, REFUND_STATES) });
  switch (pick(r, ['missing', 'empty', 'empty', 'gateway', 'gateway', 'gateway', 'odd'] as const)) {
    case 'missing':
      return undefined;
    case 'empty':
      return [];
    case 'gateway':
      return Array.from({ length: 1 + Math.floor(r() * 3) }, refund);
    default:
      return pick(r, [
        { status: 'PENDING' },
        [{ status: ['FAILED', 'PENDING'] }],
        ['PENDING'],
        [{ status: 'pending' }],
        [{ Status: 'PENDING' }],
        [{ status_note: 'PENDING' }],
        [{ detail: { status: 'PENDING' } }],
        [{ status: 5 }, refund()],
        'PENDING',
      ]);
  }
}

/**
 * A date range: bounds from the pool, nudged, either way round, with each operator. Half the
 * ranges lie within 2026, as the gateway's do; the others may span dates of other digit counts.
 */
function range(r: Rng): Condition {
  const pool = chance(r, 0.5) ? DATE_POOL.slice(0, 6) : DATE_POOL;
  const bound = () => new Date(pick(r, pool) + pick(r, [0, 0, 1, -1, 3_600_000]));
  const [a, b] = [bound(), bound()].sort((x, y) => x.getTime() - y.getTime());
  const [lo, hi] = chance(r, 0.1) ? [b!, a!] : [a!, b!];
  return { [chance(r, 0.7) ? 'gte' : 'gt']: lo, [chance(r, 0.7) ? 'lt' : 'lte']: hi };
}

const subset = <T>(r: Rng, xs: readonly T[]) => xs.filter(() => chance(r, 0.5));
const skip = (r: Rng) => pick(r, [0, 0, 0, 1, 2, 5, 17, 40, 75, 120, 400]);
const limit = (r: Rng) => pick(r, [0, 1, 2, 7, 25, 100]);

/** A ledger, bulk, sweep (of payments or of refunds) or txnId query as transaction-repository.ts writes them. */
export function randomQuery(r: Rng, docs: Doc[]): { shape: string; query: Query } {
  const merchant = () => pick(r, [...MERCHANTS, 'm1', 'nobody']);
  const shape = pick(r, ['ledger', 'ledger', 'ledger', 'bulk', 'bulk', 'bulk', 'sweep', 'refundSweep', 'txnIds']);
  switch (shape) {
    case 'ledger': {
      const filter: Record<string, Condition> = { merchantIdentifier: { eq: merchant() }, createdAt: range(r) };
      if (chance(r, 0.4)) filter.status = { in: [...subset(r, STATUSES), ...(chance(r, 0.2) ? ['Nope'] : [])] };
      if (chance(r, 0.7)) filter.delayedSuccess = { neTrue: true };
      if (filter.status && 'in' in filter.status && filter.status.in.length === 0) delete filter.status;
      return { shape, query: { filter, sort: { createdAt: 1, txnId: 1 }, skip: skip(r), limit: limit(r) } };
    }
    case 'bulk': {
      const statuses = subset(r, STATUSES);
      const filter: Record<string, Condition> = {
        merchantIdentifier: { eq: merchant() },
        successAt: range(r),
        status: { in: statuses.length > 0 ? statuses : ['Success'] },
      };
      return { shape, query: { filter, sort: { successAt: 1, txnId: 1 }, skip: skip(r), limit: limit(r) } };
    }
    case 'sweep': {
      const filter: Record<string, Condition> = {
        status: chance(r, 0.7) ? { eq: 'Pending' } : { in: ['Pending', 'Failure'] },
        updatedAt: { lt: new Date(UPDATED_DATES + Math.floor(r() * docs.length * 12)) },
      };
      return { shape, query: { filter, sort: { sweptAt: 1, updatedAt: 1 }, limit: limit(r) } };
    }
    case 'refundSweep': {
      const filter: Record<string, Condition> = {
        'refunds.status': chance(r, 0.7) ? { eq: 'PENDING' } : { in: ['PENDING', 'FAILED'] },
        updatedAt: { lt: new Date(UPDATED_DATES + Math.floor(r() * docs.length * 12)) },
      };
      return { shape, query: { filter, sort: { refundsSweptAt: 1, updatedAt: 1 }, limit: limit(r) } };
    }
    default: {
      const known = docs.map((d) => d.txnId).filter((t): t is string => typeof t === 'string');
      const ids = [...Array.from({ length: 1 + Math.floor(r() * 6) }, () => pick(r, known)), 'T-none', `${pick(r, known)}x`];
      return { shape, query: { filter: { txnId: { in: ids } } } };
    }
  }
}
