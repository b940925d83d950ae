import { istWallClockToInstant } from './ist-time';

/**
 * Date ranges of the ledger and bulk requests: IST wall-clock text to UTC instants. IST is UTC+05:30
 * all year, so this is arithmetic; a text that names no real date or time is refused (null).
 */
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * A calendar date `yyyy-MM-dd` that exists (proleptic Gregorian, years 0000 to 9999: no 2026-06-31,
 * 29 February only in leap years), as regular-expression source that JavaScript and JSON Schema
 * validators read alike: ASCII digits spelt [0-9] (a JSON Schema generator may read \d as any
 * Unicode digit), no look-around. The API reference states it, so the fuzzer's valid dates are real.
 */
export const CALENDAR_DATE_SOURCE =
  '(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))' +
  '|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)';

export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/;

/**
 * `yyyy-MM-dd HH:mm` is that minute; `yyyy-MM-dd` is that whole day. Returns the half-open range
 * [from, until) it covers, so an end given to the minute includes the whole of that minute.
 */
export function istPeriod(text: string): { from: Date; until: Date } | null {
  const m = DATE_TIME_PATTERN.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const whole = m[4] === undefined;
  const from = istWallClockToInstant(y, mo, d, whole ? 0 : Number(m[4]), whole ? 0 : Number(m[5]));
  return from && { from, until: new Date(from.getTime() + (whole ? DAY_MS : MINUTE_MS)) };
}

/** One IST calendar day `yyyy-MM-dd` as [from, until), or null. */
export function istDay(text: string): { from: Date; until: Date } | null {
  return DATE_PATTERN.test(text) ? istPeriod(text) : null;
}
