import { ObjectId } from 'mongodb';

/**
 * MongoDB's semantics for the query shapes the gateway sends (equality and $in of strings, date
 * ranges, $ne, sort, skip, limit, and equality through a dotted path), in plain JavaScript over the
 * documents as written: the reference the differential test holds the patched store to. Only the
 * value types the test writes are handled: strings, numbers, booleans, null, Dates, ObjectIds, flat
 * arrays of them, and (under refunds) documents and arrays of documents.
 */
export type Doc = Record<string, unknown> & { _id: string };

export type Condition = { eq: string } | { in: string[] } | { gt?: Date; gte?: Date; lt?: Date; lte?: Date } | { neTrue: true };

export interface Query {
  filter: Record<string, Condition>;
  sort?: Record<string, 1>;
  skip?: number;
  limit?: number;
}

/** The filter in the driver's syntax. */
export function mongoFilter(filter: Record<string, Condition>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, c] of Object.entries(filter)) {
    if ('eq' in c) out[field] = c.eq;
    else if ('in' in c) out[field] = { $in: c.in };
    else if ('neTrue' in c) out[field] = { $ne: true };
    else out[field] = Object.fromEntries(Object.entries(c).map(([op, d]) => [`$${op}`, d]));
  }
  return out;
}

/** The documents the query returns, in MongoDB's order. */
export function runQuery(docs: Doc[], q: Query): Doc[] {
  let out = docs.filter((d) => Object.entries(q.filter).every(([field, c]) => pathValues(d, field).some((v) => matches(v, c))));
  const keys = Object.keys(q.sort ?? {});
  if (keys.length > 0) out = [...out].sort((a, b) => compareBy(keys, a, b));
  out = out.slice(q.skip ?? 0);
  return q.limit ? out.slice(0, q.limit) : out;
}

/**
 * The values a field name reaches: the field's own value (undefined when missing), or for a dotted
 * path (refunds.status) each value reached through documents and arrays of documents.
 */
function pathValues(doc: Doc, field: string): unknown[] {
  const [head, ...rest] = field.split('.');
  let values: unknown[] = [doc[head!]];
  for (const key of rest) {
    values = values.flatMap((v) => (Array.isArray(v) ? v.filter(isDocument).map((e) => e[key]) : isDocument(v) ? [v[key]] : []));
  }
  return values.length > 0 ? values : [undefined];
}

const isDocument = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** A field matches when its value does, or (an array) when elements do: each operator by some element. */
function matches(v: unknown, c: Condition): boolean {
  const some = (pred: (x: unknown) => boolean) => pred(v) || (Array.isArray(v) && v.some(pred));
  if ('eq' in c) return some((x) => x === c.eq);
  if ('in' in c) return some((x) => typeof x === 'string' && c.in.includes(x));
  if ('neTrue' in c) return !some((x) => x === true);
  // Type bracketing: a date bound matches only dates.
  const ms = (x: unknown) => (x instanceof Date ? x.getTime() : undefined);
  const tests: ((x: unknown) => boolean)[] = [];
  if (c.gt) tests.push((x) => ms(x) !== undefined && ms(x)! > c.gt!.getTime());
  if (c.gte) tests.push((x) => ms(x) !== undefined && ms(x)! >= c.gte!.getTime());
  if (c.lt) tests.push((x) => ms(x) !== undefined && ms(x)! < c.lt!.getTime());
  if (c.lte) tests.push((x) => ms(x) !== undefined && ms(x)! <= c.lte!.getTime());
  return tests.every(some);
}

function compareBy(keys: string[], a: Doc, b: Doc): number {
  for (const k of keys) {
    const r = compareSortKeys(a[k], b[k]);
    if (r !== 0) return r;
  }
  return 0;
}

/**
 * Ascending sort: an array sorts by its smallest element, an empty array before null; a missing
 * field sorts as null.
 */
function compareSortKeys(a: unknown, b: unknown): number {
  const emptyA = Array.isArray(a) && a.length === 0;
  const emptyB = Array.isArray(b) && b.length === 0;
  if (emptyA && emptyB) return 0;
  if (emptyA) return -1;
  if (emptyB) return 1;
  return compareValues(smallest(a), smallest(b));
}

function smallest(v: unknown): unknown {
  return Array.isArray(v) ? v.reduce((m: unknown, x: unknown) => (compareValues(x, m) < 0 ? x : m)) : v;
}

/** BSON comparison order: null < numbers < strings < ObjectId < booleans < dates. */
function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number') return 2;
  if (typeof v === 'string') return 3;
  if (v instanceof ObjectId) return 7;
  if (typeof v === 'boolean') return 8;
  if (v instanceof Date) return 9;
  throw new Error(`the reference does not order ${String(v)}`);
}

export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number') return a - (b as number);
  // Strings compare by their UTF-8 bytes, not JavaScript's UTF-16 units.
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b as string));
  if (a instanceof ObjectId) return Buffer.compare(Buffer.from(a.id), Buffer.from((b as ObjectId).id));
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date) return a.getTime() - (b as Date).getTime();
  return 0;
}
