import type { z } from 'zod';
import type { Merchant } from '../../domain/merchant';
import type { ApiDeps } from '../deps';
import { requireMerchant } from '../middleware/authenticate';
import { validate } from '../middleware/body';
import type { AuthScheme, HeadersAuthScheme } from '../operation';

/**
 * A tester proves nothing: the body names the merchant whose sandbox it plays in. The whole body is
 * validated first (and `check`ed, e.g. its test instrument), so an invalid request is answered as
 * invalid whichever merchant it names; an unknown merchant is 401 (2012).
 */
export function namedMerchant<B extends { merchantIdentifier: string }>(
  schema: z.ZodType<B>,
  check?: (body: B, deps: ApiDeps) => void,
): AuthScheme<Merchant> {
  return {
    from: 'body',
    async authenticate(_ctx, deps, { parsed, valid }) {
      const body = (valid as B | undefined) ?? validate(schema, parsed);
      check?.(body, deps);
      return requireMerchant(deps.useCases.shared, body.merchantIdentifier);
    },
    limitKey: (merchant) => merchant.merchantIdentifier,
  };
}

/**
 * Time travel names no merchant: anyone who reaches a gateway in time-skipping mode may use it. Nor
 * does the checkout's returnUrl, whose query names the merchant whose key it verifies with.
 */
export const anyTester: HeadersAuthScheme<null> = {
  from: 'headers',
  authenticate: () => Promise.resolve(null),
  limitKey: () => 'no limit',
};
