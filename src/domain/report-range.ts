/**
 * Date ranges of the ledger and bulk requests: IST wall-clock text to UTC instants. IST is UTC+05:30
 * all year, so this is arithmetic; a text that names no real date or time is refused (null).
 */
const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/;

/** The instant an IST wall-clock date and time begins, or null when no such date or time exists. */
function istInstant(y: number, mo: number, d: number, h: number, mi: number): Date | null {
  if (h > 23 || mi > 59) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const check = new Date(0);
  check.setUTCFullYear(y, mo - 1, d);
  check.setUTCHours(h, mi);
  const utc = check.getTime();
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  return new Date(utc - IST_OFFSET_MS);
}

/**
 * `yyyy-MM-dd HH:mm` is that minute; `yyyy-MM-dd` is that whole day. Returns the half-open range
 * [from, until) it covers, so an end given to the minute includes the whole of that minute.
 */
export function istPeriod(text: string): { from: Date; until: Date } | null {
  const m = DATE_TIME_PATTERN.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const whole = m[4] === undefined;
  const from = istInstant(y, mo, d, whole ? 0 : Number(m[4]), whole ? 0 : Number(m[5]));
  return from && { from, until: new Date(from.getTime() + (whole ? DAY_MS : MINUTE_MS)) };
}

/** One IST calendar day `yyyy-MM-dd` as [from, until), or null. */
export function istDay(text: string): { from: Date; until: Date } | null {
  return DATE_PATTERN.test(text) ? istPeriod(text) : null;
}
