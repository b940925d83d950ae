import { z } from 'zod';
import { isIsoDate } from '../../domain/settlement-calendar';

export { feePlanSchema } from '../../domain/settlement-fees';

/** `?date=yyyy-MM-dd` of the differences list (optional). */
export const differencesQuerySchema = z.strictObject({
  date: z.string().refine(isIsoDate, 'must be a yyyy-MM-dd date').optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** `POST /ops/v1/merchants/:id/settlements/run`: the settlement (UTR) date to run. */
export const settlementRunSchema = z.strictObject({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a yyyy-MM-dd date')
    .refine(isIsoDate, 'must be a yyyy-MM-dd date')
    .describe('the settlement (UTR) date, IST, yyyy-MM-dd'),
});
