import { z } from 'zod';
import { isIsoDate } from './domain/settlement-calendar';
import { feePlanSchema } from './domain/settlement-fees';
import { safeJson } from './config-schema-fields';

/** Configuration: settlements (T+N, holidays, the default fee plan, the daily schedule). */
export const settlementSettings = z.object({
  SETTLEMENT_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30)
    .default(1)
    .describe('payments captured on an IST day settle this many working days later (T+N)'),
  SETTLEMENT_HOLIDAYS: z
    .string()
    .default('')
    .refine((v) => v.split(',').every((d) => d.trim() === '' || isIsoDate(d.trim())), 'must be comma-separated yyyy-MM-dd dates')
    .describe('dates (yyyy-MM-dd, comma-separated) that are not working days for settlements, besides Saturdays and Sundays'),
  SETTLEMENT_FEE_PLAN: z
    .string()
    .default('')
    .refine(
      (v) => v === '' || feePlanSchema.safeParse(safeJson(v)).success,
      'must be a fee plan as JSON (docs/operators/settlements.md)',
    )
    .describe('the fee plan of merchants without their own, as JSON (empty: the built-in default)'),
  SETTLEMENT_HOUR_IST: z.coerce
    .number()
    .int()
    .min(0)
    .max(23)
    .default(9)
    .describe("the IST hour the daily settlement schedule starts the day's settlements"),
});
