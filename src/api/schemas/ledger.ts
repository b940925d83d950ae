import { z } from 'zod';
import type { ApiErrorKind } from '../../domain/api-errors';
import { BusinessResults } from '../../domain/api-errors';
import { bulkRecordSchema, ledgerRecordSchema } from '../../domain/ledger-record';
import { CALENDAR_DATE_SOURCE } from '../../domain/report-range';

export const LEDGER_MAX_PAGE_SIZE = 10_000;
export const LEDGER_DEFAULT_PAGE_SIZE = 1000;
export const BULK_MAX_PAGE_SIZE = 500;
export const BULK_DEFAULT_PAGE_SIZE = 10;
/** Far beyond any real walk, and it keeps skip (pageNumber x pageSize) a safe integer. */
const MAX_PAGE_NUMBER = 1_000_000;

// Dates that exist (no 2026-02-30: the route checks it too) and times of day, in ASCII digits.
const DATE = CALENDAR_DATE_SOURCE;
const dateTimeField = z
  .string()
  .regex(new RegExp(`^${DATE}( (?:[01][0-9]|2[0-3]):[0-5][0-9])?$`), 'must be yyyy-MM-dd HH:mm, or yyyy-MM-dd for the whole day')
  .describe('IST; yyyy-MM-dd HH:mm (that minute, inclusive) or yyyy-MM-dd (the whole day)');
const pageNumberField = z.number().int().min(1).max(MAX_PAGE_NUMBER).optional().describe('default 1');

export const ledgerRequestSchema = z.object({
  startDateTime: dateTimeField,
  endDateTime: dateTimeField.describe('IST, inclusive to the minute (a date: to the end of that day); not before startDateTime'),
  status: z.enum(['SUCCESS', 'FAILED', 'PENDING', 'ALL']),
  pageNumber: pageNumberField,
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(LEDGER_MAX_PAGE_SIZE)
    .optional()
    .describe(`default ${LEDGER_DEFAULT_PAGE_SIZE}; over ${LEDGER_MAX_PAGE_SIZE} is code 1030`),
  includeDelayedSuccessTxn: z
    .boolean()
    .optional()
    .describe('default false: successes that came from reconciliation are left out'),
});
export type LedgerRequest = z.infer<typeof ledgerRequestSchema>;

/**
 * Zaakpay's ledger code for an invalid request, by the first field that failed, in the order
 * Zaakpay checks them: 1026 a date missing, 1027 status, 1028 a date's format, 1029 paging.
 * Anything else (includeDelayedSuccessTxn of the wrong type) has no Zaakpay code: 2002.
 */
export function ledgerErrorKind(issues: readonly { path: readonly PropertyKey[] }[], body: unknown): ApiErrorKind {
  const failed = (field: string) => issues.filter((i) => i.path[0] === field);
  const dates = [...failed('startDateTime'), ...failed('endDateTime')];
  const sent = body as Record<string, unknown>;
  if (issues.some((i) => i.path.length === 0) || dates.some((i) => sent[i.path[0] as string] === undefined))
    return 'ledgerDateMissing';
  if (failed('status').length) return 'ledgerStatusInvalid';
  if (dates.length) return 'ledgerDateInvalid';
  if (failed('pageSize').length || failed('pageNumber').length) return 'ledgerPageInvalid';
  return 'validationFailed';
}

export const ledgerNoRecordSchema = z
  .object({
    success: z.literal(false),
    message: z.object({ code: z.literal(String(BusinessResults.ledgerNoRecord.code)), text: z.string() }),
  })
  .describe('a page with no record: HTTP 200, code 1035 "No record found." (paging loops stop on it)');

export const ledgerResponseSchema = z.union([
  z.object({
    success: z.literal(true),
    data: z.object({
      transactions: z.array(ledgerRecordSchema),
      isNextPageAvailable: z.boolean(),
    }),
  }),
  ledgerNoRecordSchema,
]);

export const bulkRequestSchema = z.object({
  txnDate: z
    .string()
    .regex(new RegExp(`^${DATE}$`), 'must be yyyy-MM-dd')
    .describe('IST day on which the transactions succeeded'),
  status: z.literal('success'),
  pageNumber: pageNumberField,
  pageSize: z.number().int().min(1).max(BULK_MAX_PAGE_SIZE).optional().describe(`default ${BULK_DEFAULT_PAGE_SIZE}`),
});
export type BulkRequest = z.infer<typeof bulkRequestSchema>;

export const NO_BULK_TRANSACTION = 'No transaction found';

export const bulkResponseSchema = z.object({
  success: z.literal(true),
  data: z.union([z.array(bulkRecordSchema), z.literal(NO_BULK_TRANSACTION)]),
});
