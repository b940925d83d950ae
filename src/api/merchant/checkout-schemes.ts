import type { Context } from 'koa';
import { CheckoutRefusal } from '../../domain/checkout';
import type { FormPairs } from '../../domain/checkout-checksum';
import { checksumMatches } from '../../domain/checksum';
import type { Merchant } from '../../domain/merchant';
import type { ApiDeps } from '../deps';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { jsonObjectOrNull } from '../middleware/form-body';
import { Verified, type AuthScheme } from '../operation';
import { checkoutDataSchema } from '../schemas/checkout';
import { checkoutRefusal } from './checkout-operation';

/**
 * How the checkout entries authenticate the merchant, each by its checksum, before anything of the
 * order is validated or stored. Each returns what its checksum covered (the reading the order is
 * validated from); a refusal is the checkout's (108/109 naming the field, 101, 180), HTTP 200.
 */

type Read = (ctx: Context, deps: ApiDeps, pairs: FormPairs) => Promise<Verified<Merchant>>;

function checkoutScheme(bodySignature: 'formChecksum' | 'expressChecksum' | 'legacyChecksum', read: Read): AuthScheme<Merchant> {
  return {
    bodySignature,
    from: 'signedReading',
    async authenticate(ctx, deps, { parsed }) {
      try {
        return await read(ctx, deps, parsed as FormPairs);
      } catch (e) {
        if (e instanceof CheckoutRefusal) return checkoutRefusal(e);
        throw e;
      }
    },
    limitKey: (merchant) => merchant.merchantIdentifier,
  };
}

/** `data` (JSON text) and `checksum` = HMAC-SHA256 of those exact characters: `data` is then validated as the custom checkout's. */
async function signedData(deps: ApiDeps, fields: Record<string, string>): Promise<Verified<Merchant>> {
  if (!fields.data) throw new CheckoutRefusal('fieldMissing', 'data');
  // Read leniently, only to find the signer; the checksum covers the exact text.
  const unread = jsonObjectOrNull(fields.data);
  if (!unread) throw new CheckoutRefusal('fieldInvalid', 'data: not a JSON object');
  const named = unread.merchantIdentifier;
  const merchant = await signer(deps, typeof named === 'string' ? named : undefined);
  requireChecksum(fields.checksum);
  const verified = await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) =>
    checksumMatches(keys, fields.data, fields.checksum),
  );
  if (!verified) throw new CheckoutRefusal('checksumMismatch');
  return new Verified(merchant, unread, checkoutDataSchema);
}

/** `POST /transactU?v=8`: the custom checkout's signed `data`. */
export const signedCheckoutData = checkoutScheme('formChecksum', (_ctx, deps, pairs) =>
  signedData(deps, Object.fromEntries(pairs)),
);

/** The merchant the request names, before its checksum is checked (101 when there is none). */
async function signer(deps: ApiDeps, merchantIdentifier: string | undefined): Promise<Merchant> {
  if (!merchantIdentifier) throw new CheckoutRefusal('fieldMissing', 'merchantIdentifier');
  const merchant = merchantIdentifier.length <= 64 ? await deps.merchants.findById(merchantIdentifier) : null;
  if (!merchant) throw new CheckoutRefusal('merchantNotFound');
  return merchant;
}

function requireChecksum(checksum: string | undefined) {
  if (!checksum) throw new CheckoutRefusal('fieldMissing', 'checksum');
}
