import { z } from 'zod';

export const reconciliationFileSchema = z
  .string()
  .regex(/^\uFEFF?txnId,bankRefNum,status,amount(\r?\n[\s\S]*)?$/)
  .describe(
    'text/csv: the header txnId,bankRefNum,status,amount, then one line per transaction (status SUCCESS or FAILED, amount in paise)',
  );

export const reconciliationStartedSchema = z.object({
  success: z.literal(true),
  data: z.object({ reconciliationId: z.string() }),
});

export const reconciliationReportSchema = z.object({
  success: z.literal(true),
  data: z.object({
    reconciliationId: z.string(),
    state: z.enum(['running', 'done']),
    rows: z.number().int().describe('lines after the header'),
    applied: z.number().int(),
    unchanged: z.number().int(),
    rejected: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  }),
});
