import { z } from 'zod';
import { bulkRecordSchema, ledgerRecordSchema } from '../../domain/ledger-record';

export const LEDGER_MAX_PAGE_SIZE = 10_000;
export const LEDGER_DEFAULT_PAGE_SIZE = 1000;
export const BULK_MAX_PAGE_SIZE = 500;
export const BULK_DEFAULT_PAGE_SIZE = 10;
/** Far beyond any real walk, and it keeps skip (pageNumber x pageSize) a safe integer. */
const MAX_PAGE_NUMBER = 1_000_000;

// Calendar-shaped patterns; a date that does not exist (2026-02-30) is refused by the route too.
const DATE = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])';
const dateTimeField = z
  .string()
  .regex(new RegExp(`^${DATE}( ([01]\\d|2[0-3]):[0-5]\\d)?$`), 'must be yyyy-MM-dd HH:mm, or yyyy-MM-dd for the whole day')
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

export const ledgerResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    transactions: z.array(ledgerRecordSchema),
    isNextPageAvailable: z.boolean(),
  }),
});

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
