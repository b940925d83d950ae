import { z } from 'zod';
import { isIsoDate, parseHolidays } from './domain/settlement-calendar';
import { DEFAULT_FEE_PLAN, feePlanSchema, type FeePlan } from './domain/settlement-fees';
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
    .transform(parseHolidays)
    .describe('dates (yyyy-MM-dd, comma-separated) that are not working days for settlements, besides Saturdays and Sundays'),
  SETTLEMENT_FEE_PLAN: z
    .string()
    .default('')
    .refine(
      (v) => v === '' || feePlanSchema.safeParse(safeJson(v)).success,
      'must be a fee plan as JSON (docs/operators/settlements.md)',
    )
    .transform((v): FeePlan => (v === '' ? DEFAULT_FEE_PLAN : feePlanSchema.parse(JSON.parse(v))))
    .describe('the fee plan of merchants without their own, as JSON (empty: the built-in default)'),
  SETTLEMENT_HOUR_IST: z.coerce
    .number()
    .int()
    .min(0)
    .max(23)
    .default(9)
    .describe("the IST hour the daily settlement schedule starts the day's settlements"),
  SETTLEMENT_FILE_HOUR_IST: z.coerce
    .number()
    .int()
    .min(0)
    .max(23)
    .default(11)
    .describe("the IST hour the daily schedule checks the bank's settlement file of the day before"),
  SETTLEMENT_ACCOUNT_COOLING_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(720)
    .default(24)
    .describe('payouts to a settlement bank account changed less than this many hours ago wait (0: they do not)'),
  SETTLEMENT_ATTENTION_OPEN_MINUTES: attentionMinutes(
    120,
    'a settlement still open (or its workflow failed, terminated or timed out) this long after it was created needs attention',
  ),
  SETTLEMENT_ATTENTION_PAYOUT_MINUTES: attentionMinutes(
    1440,
    'a settlement whose payout the bank has not answered (payout_requested, PENDING) this long after it was requested needs attention',
  ),
  SETTLEMENT_ATTENTION_HELD_MINUTES: attentionMinutes(
    10080,
    'a settlement held this long after it was created needs attention (held ones are listed anyway; this one counts in the metric)',
  ),
});

function attentionMinutes(fallback: number, description: string) {
  return z.coerce.number().int().min(0).max(525_600).default(fallback).describe(description);
}
