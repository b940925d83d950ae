/** The longest wait a Retry-After may ask for (a year); anything longer is read as this. */
const MAX_RETRY_AFTER_S = 366 * 86_400;

/** Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with the day's name. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i;

/**
 * Retry-After (RFC 9110) as delay-seconds or an HTTP date, in ms from `at`; null when absent or
 * unreadable. A date in the past is no wait (0). Only an HTTP-date form is read as a date: V8's
 * Date.parse takes almost anything (`-5` and `1.5` are dates to it), and such a value is unreadable.
 */
export function parseRetryAfter(value: string | undefined, at: Date): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_S) * 1000;
  const date = HTTP_DATE.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - at.getTime());
}
