import { z } from 'zod';

/** Configuration of rate limits and abuse limits (`limits`). */
export const limitSettings = z.object({
  RATE_LIMIT_PER_SECOND: z.coerce
    .number()
    .int()
    .min(0)
    .default(50)
    .describe('requests per second per merchant and API family (429 past it); 0 turns limits off'),
  SETTLEMENT_REPORT_CALLS_PER_HOUR: z.coerce
    .number()
    .int()
    .min(0)
    .default(2)
    .describe(
      "calls an hour per merchant to Zaakpay's Settlement API (Zaakpay's own limit: 2); 429 past it; 0 turns the limit off",
    ),
  AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(30)
    .describe('failed authentications a minute from one client address; past it every request from it gets 429 (0: off)'),
  AUTH_FAILURES_PER_MERCHANT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .describe(
      "failed authentications a minute claiming one merchant; past it further failures get 429 (the merchant's own signed calls go on; 0: off)",
    ),
  PAGE_REQUESTS_PER_TOKEN_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(120)
    .describe('requests a minute to one hosted payment page (GET /pl/:token and its form); 429 past it (0: off)'),
  PAGE_REQUESTS_PER_ADDRESS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(600)
    .describe('requests a minute to hosted payment pages from one client address; 429 past it (0: off)'),
});
