import { z } from 'zod';

/** Configuration of the merchant dashboard's sessions, invitations and sign-in (`dashboard`). */
export const dashboardSettings = z.object({
  DASHBOARD_SESSION_HOURS: z.coerce
    .number()
    .positive()
    .max(720)
    .default(12)
    .describe('how long a merchant dashboard sign-in lasts before the user signs in again'),
  DASHBOARD_INVITATION_HOURS: z.coerce
    .number()
    .positive()
    .max(720)
    .default(72)
    .describe('how long a dashboard invitation link can be used (once)'),
  DASHBOARD_PASSWORD_COST: z.coerce
    .number()
    .int()
    .min(10)
    .max(20)
    .default(17)
    .describe(
      "dashboard passwords: scrypt's N = 2^this (r 8, p 1); 17 is OWASP's guidance and the least staging and production accept; older hashes are rehashed at sign-in",
    ),
  DASHBOARD_SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(0)
    .default(5)
    .describe(
      'failed dashboard sign-ins per email address in 15 minutes; past it the account cannot sign in until then (0: off)',
    ),
  DASHBOARD_SIGN_IN_FAILURES_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(0)
    .default(50)
    .describe(
      'failed dashboard sign-ins from one client address in 15 minutes; past it that address cannot sign in until then (0: off)',
    ),
});
