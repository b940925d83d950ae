import { z } from 'zod';
import { DATE_PATTERN, istDay } from '../../domain/report-range';
import { istDate } from '../../domain/ist-time';
import { MAX_SEARCH_DAYS } from './dashboard-transactions';

/** The period of a dashboard list (a GET form of IST days, both included); empty fields take the default. */
const day = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.string().regex(DATE_PATTERN, 'must be a date yyyy-MM-dd').optional(),
);
export const periodQuerySchema = z.strictObject({ from: day, to: day });

const DAY_MS = 86_400_000;

/** The period asked (by default the last `defaultDays` IST days), as text and as [from, until); or what is wrong. */
export function listPeriod(
  query: unknown,
  now: Date,
  defaultDays: number,
):
  | { ok: true; fromText: string; toText: string; from: Date; until: Date }
  | { ok: false; problem: string; fromText: string; toText: string } {
  const raw = (query ?? {}) as Record<string, unknown>;
  const today = istDate(now);
  const fallbackFrom = istDate(new Date(now.getTime() - (defaultDays - 1) * DAY_MS));
  const parsed = periodQuerySchema.safeParse(raw);
  const fromText =
    (parsed.success ? parsed.data.from : undefined) ?? (typeof raw.from === 'string' && raw.from ? raw.from : fallbackFrom);
  const toText = (parsed.success ? parsed.data.to : undefined) ?? (typeof raw.to === 'string' && raw.to ? raw.to : today);
  if (!parsed.success)
    return { ok: false, problem: 'from and to must be dates (yyyy-MM-dd); nothing else is asked.', fromText, toText };
  const from = istDay(fromText);
  const to = istDay(toText);
  if (!from || !to) return { ok: false, problem: 'from and to must be real dates.', fromText, toText };
  if (from.from > to.from) return { ok: false, problem: 'The period starts after it ends.', fromText, toText };
  if ((to.until.getTime() - from.from.getTime()) / DAY_MS > MAX_SEARCH_DAYS)
    return { ok: false, problem: `Choose at most ${MAX_SEARCH_DAYS} days.`, fromText, toText };
  return { ok: true, fromText, toText, from: from.from, until: to.until };
}

/** The dashboard's form creating one payment link; the link API's own checks then apply to it. */
export const linkFormSchema = z.strictObject({
  batchId: z.string().regex(/^dash-[a-f0-9]{16}$/, 'the form is damaged; reload the page'),
  orderId: z.string().trim().max(100),
  amount: z.string().trim().max(20),
  productDescription: z.string().trim().max(500),
  customerEmail: z.string().trim().max(254).optional(),
  validDays: z.enum(['1', '3', '7', '30']),
});
