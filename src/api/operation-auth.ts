import type { z } from 'zod';
import type { Merchant } from '../domain/merchant';
import { authenticateHeaderChecksum } from './middleware/authenticate';
import { validate } from './middleware/body';
import type { AuthScheme } from './operation';

/**
 * The authentication schemes operations share. Each reads from the body only what finding the
 * merchant takes; the rest of the body is validated after it.
 */

/**
 * Header `checksum` = HMAC-SHA256 of the exact body under the merchant's keys in force; the merchant
 * is the body's `merchantIdentifier`, read with `caller` (a body that is valid already is not parsed again).
 */
export function headerChecksum(
  caller: z.ZodType<{ merchantIdentifier: string }>,
  security: Record<string, string[]>[],
): AuthScheme<Merchant> {
  return {
    security,
    async authenticate(ctx, deps, { raw, parsed, valid }) {
      const { merchantIdentifier } = (valid as { merchantIdentifier: string } | undefined) ?? validate(caller, parsed);
      return authenticateHeaderChecksum(ctx, deps.merchants, merchantIdentifier, raw, deps.now());
    },
    limitKey: (merchant) => merchant.merchantIdentifier,
  };
}
