/**
 * India Standard Time is UTC+05:30 all year (no DST), so formatting is plain arithmetic on the
 * instant: faster and more predictable than Intl on a hot path such as a 10,000-row ledger page.
 * The gateway's one IST module: nothing else defines the offset.
 */
export const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;

const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function istParts(instant: Date) {
  const t = new Date(instant.getTime() + IST_OFFSET_MS);
  return {
    yyyy: pad(t.getUTCFullYear(), 4),
    MM: pad(t.getUTCMonth() + 1),
    dd: pad(t.getUTCDate()),
    HH: pad(t.getUTCHours()),
    mm: pad(t.getUTCMinutes()),
    ss: pad(t.getUTCSeconds()),
    SSS: pad(t.getUTCMilliseconds(), 3),
  };
}

/**
 * The instant an IST wall-clock date and time names, or null when no such date or time exists
 * (2026-02-30, 24:00). setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
 */
export function istWallClockToInstant(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date | null {
  if (h > 23 || mi > 59 || s > 59) return null;
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null;
  t.setUTCHours(h, mi, s);
  return new Date(t.getTime() - IST_OFFSET_MS);
}

/** `yyyy-MM-dd`: the IST calendar date of `instant`. */
export function istDate(instant: Date): string {
  const p = istParts(instant);
  return `${p.yyyy}-${p.MM}-${p.dd}`;
}

/** Milliseconds since the IST midnight starting the IST day of `instant` (0 to 86,399,999). */
export function istMsOfDay(instant: Date): number {
  return (((instant.getTime() + IST_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS;
}

type IstParts = ReturnType<typeof istParts>;
const dateTimeText = (p: IstParts) => `${p.yyyy}-${p.MM}-${p.dd} ${p.HH}:${p.mm}:${p.ss}`;

/** `yyyy-MM-dd HH:mm:ss` in IST: the status, ledger and bulk APIs' timestamp format. */
export function formatIstDateTime(instant: Date): string {
  return dateTimeText(istParts(instant));
}

/** `MM/dd/yyyy HH:mm:ss` in IST: the real-time webhook's pgTransTime. */
export function formatIstUsDateTime(instant: Date): string {
  const p = istParts(instant);
  return `${p.MM}/${p.dd}/${p.yyyy} ${p.HH}:${p.mm}:${p.ss}`;
}

/** `yyyy-MM-dd HH:mm:ss.SSS` in IST: the real-time webhook's txnDate. */
export function formatIstDateTimeMillis(instant: Date): string {
  const p = istParts(instant);
  return `${dateTimeText(p)}.${p.SSS}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The IST calendar day of `instant` at midnight, as mandate create responses render
 * mandateConfig dates (`MMM d, yyyy h:mm:ss a`): `Nov 23, 2026 12:00:00 AM`.
 */
export function formatIstMandateDate(instant: Date): string {
  const p = istParts(instant);
  return `${MONTHS[Number(p.MM) - 1]} ${Number(p.dd)}, ${p.yyyy} 12:00:00 AM`;
}

/** IST midnight starting the IST day of `instant`. */
export function istStartOfDay(instant: Date): Date {
  const p = istParts(instant);
  return istWallClockToInstant(Number(p.yyyy), Number(p.MM), Number(p.dd))!;
}

/**
 * `yyyy-MM-dd` (zero padding optional) or `yyyy-MM-dd HH:mm:ss` in IST as an instant, or null when
 * it names no real date or time.
 */
export function parseIstDateTime(text: string): Date | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  return istWallClockToInstant(y, mo, d, h, mi, s);
}
