import { z } from 'zod';

/** A year: the longest skip one call takes (a mandate's whole life fits; a typo of extra zeros does not). */
export const MAX_SKIP_SECONDS = 366 * 24 * 3600;

/** Skip by a number of seconds, or up to an IST wall-clock time; exactly one of the two. */
export const timeSkipSchema = z.union([
  z.strictObject({
    seconds: z.number().int().min(1).max(MAX_SKIP_SECONDS).describe("whole seconds to move the gateway's time forward"),
  }),
  z.strictObject({
    until: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be yyyy-MM-dd HH:mm:ss (IST)')
      .describe('IST wall-clock time to move to, after the current time and at most a year ahead'),
  }),
]);
export type TimeSkipRequest = z.infer<typeof timeSkipSchema>;

/** Empty: the GET takes no query. */
export const timeQuerySchema = z.strictObject({});

const instant = z.object({
  istDateTime: z.string().describe('yyyy-MM-dd HH:mm:ss in IST'),
  epochMillis: z.number().int().describe('milliseconds since 1970-01-01T00:00:00Z'),
});

export const timeResponseSchema = z.object({ success: z.literal(true), data: instant });

export const timeSkipResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ from: instant.describe('the time before the skip'), to: instant.describe('the time after it') }),
});
