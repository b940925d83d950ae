import type { Context } from 'koa';
import { CheckoutRefusal } from '../../domain/checkout';
import { signedExpressFields, signedLegacyFields, type FormPairs } from '../../domain/checkout-checksum';
import { checksumMatches } from '../../domain/checksum';
import { ambiguousField, matchKitForm } from '../../domain/legacy-form-reading';
import type { Merchant } from '../../domain/merchant';
import { checkoutRequestOfFields } from '../checkout-request';
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
  const verified = await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
    checksumMatches(keys, fields.data, fields.checksum),
  );
  if (!verified) throw new CheckoutRefusal('checksumMismatch');
  return new Verified(merchant, unread, checkoutDataSchema);
}

/** `POST /transactU?v=8`: the custom checkout's signed `data`. */
export const signedCheckoutData = checkoutScheme('formChecksum', (_ctx, deps, pairs) =>
  signedData(deps, Object.fromEntries(pairs)),
);

/**
 * The express checkout: flat fields signed `key=value&` in Zaakpay's order (signedExpressFields, the
 * values raw or as the PHP kits sanitize them), or the custom checkout's `data` + `checksum`.
 */
export const expressChecksum = checkoutScheme('expressChecksum', async (_ctx, deps, pairs) => {
  const fields = Object.fromEntries(pairs);
  if (fields.data !== undefined && fields.orderId === undefined) return signedData(deps, fields);
  const merchant = await signer(deps, fields.merchantIdentifier);
  requireChecksum(fields.checksum);
  const signed = await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
    signedExpressFields(keys, pairs, fields.checksum),
  );
  if (!signed) throw new CheckoutRefusal('checksumMismatch');
  return new Verified(merchant, Object.fromEntries(signed));
});

/**
 * `POST /transact` (also `?v=2`, `?v=3`): the legacy quoted checksum, over the fields a kit signs, in
 * the order posted; the form is read only as a kit posts it (legacy-form-reading.ts): the
 * checksum (180), then its names one kit's sequence and its values one reading (109 naming the field).
 */
export const legacyChecksum = checkoutScheme('legacyChecksum', async (ctx, deps, pairs) => {
  const v = ctx.query.v;
  if (v !== undefined && v !== '2' && v !== '3') throw new CheckoutRefusal('fieldInvalid', 'v: must be 2 or 3, or absent');
  const fields = Object.fromEntries(pairs);
  const merchant = await signer(deps, fields.merchantIdentifier);
  requireChecksum(fields.checksum);
  const endpoint = v === '2' ? 'transactV2' : 'transact';
  const match = matchKitForm(endpoint, pairs);
  const verified = await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
    signedLegacyFields(keys, 'kit' in match ? match.signed : pairs, fields.checksum),
  );
  if (!verified) throw new CheckoutRefusal('checksumMismatch');
  const unreadable = (field: string, why: string) => new CheckoutRefusal('legacyFormUnreadable', `${field}: ${why}`);
  if ('quoted' in verified) throw unreadable(verified.quoted, QUOTE_RULE);
  if ('problem' in match) throw unreadable(match.problem.field, match.problem.why);
  const signed = { kit: match.kit, signed: verified.signed };
  const outcome = (f: Record<string, string>) => {
    if (f.merchantIdentifier !== merchant.merchantIdentifier) return null;
    try {
      const r = checkoutRequestOfFields({ ...f, checksum: fields.checksum });
      return JSON.stringify([r.orderId, r.amountPaise, r.returnUrl ?? merchant.defaultReturnUrl]);
    } catch {
      return null;
    }
  };
  const ambiguous = ambiguousField(endpoint, signed, outcome);
  if (ambiguous) throw unreadable(ambiguous, AMBIGUOUS_RULE);
  return new Verified(merchant, { ...Object.fromEntries(signed.signed), checksum: fields.checksum });
});

const QUOTE_RULE =
  "holds a single quote, so the legacy checksum's 'v1''v2'... text splits more than one way: sign the values as Zaakpay's PHP kits sanitize them";
const AMBIGUOUS_RULE = "these values read as another valid order under another kit's field names";

/** The merchant the request names, before its checksum is checked (101 when there is none). */
async function signer(deps: ApiDeps, merchantIdentifier: string | undefined): Promise<Merchant> {
  if (!merchantIdentifier) throw new CheckoutRefusal('fieldMissing', 'merchantIdentifier');
  const merchant = merchantIdentifier.length <= 64 ? await deps.useCases.shared.findMerchant(merchantIdentifier) : null;
  if (!merchant) throw new CheckoutRefusal('merchantNotFound');
  return merchant;
}

function requireChecksum(checksum: string | undefined) {
  if (!checksum) throw new CheckoutRefusal('fieldMissing', 'checksum');
}
