import { z } from 'zod';

/** `GET /ops/v1/audit`: the records of one merchant or of all, newest first, a page at a time. */
export const auditQuerySchema = z.strictObject({
  merchantIdentifier: z
    .string()
    .regex(/^[A-Za-z0-9]{6,64}$/, 'must be a merchant identifier')
    .optional(),
  before: z.iso.datetime({ offset: true }).optional().describe('the `at` of the last record of the previous page'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
