import { z } from 'zod';
import { CALENDAR_DATE_SOURCE } from '../../domain/report-range';
import { isIsoDate } from '../../domain/settlement-calendar';

/** A calendar date that exists, as the API reference states it (isIsoDate checks the same). */
const CALENDAR_DATE = new RegExp(`^${CALENDAR_DATE_SOURCE}$`);

export { feePlanSchema } from '../../domain/settlement-fees';

/** `?date=yyyy-MM-dd` of the differences list (optional). */
export const differencesQuerySchema = z.strictObject({
  date: z.string().regex(CALENDAR_DATE, 'must be a yyyy-MM-dd date').refine(isIsoDate, 'must be a yyyy-MM-dd date').optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** `POST /ops/v1/merchants/:id/settlements/run`: the settlement (UTR) date to run. */
export const settlementRunSchema = z.strictObject({
  date: z
    .string()
    .regex(CALENDAR_DATE, 'must be a yyyy-MM-dd date')
    .refine(isIsoDate, 'must be a yyyy-MM-dd date')
    .describe('the settlement (UTR) date, IST, yyyy-MM-dd'),
});
