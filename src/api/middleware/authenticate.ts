import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { checksumMatches, qrChecksumPayload, secretKeysAt } from '../../domain/checksum';
import { hashApiKey } from '../../domain/secrets';
import type { Merchant } from '../../domain/merchant';
import type { UseCases } from '../use-cases';
import { jsonObjectOrNull } from './form-body';

/**
 * The contract's four ways a merchant proves who it is. Each returns the merchant or throws the
 * catalogue's 401; every comparison is constant-time.
 */

/** What finding a merchant and the keys in force takes (the shared use cases). */
type MerchantFinder = Pick<UseCases['shared'], 'findMerchant' | 'findMerchantAfresh' | 'findMerchantByApiKeyHash'>;

export async function requireMerchant(merchants: MerchantFinder, merchantIdentifier: string): Promise<Merchant> {
  const merchant = await merchants.findMerchant(merchantIdentifier);
  if (!merchant) throw new ApiError('unknownMerchant');
  return merchant;
}

/**
 * Verifies a checksum with the merchant's keys in force (`verify` answers what it verified, or
 * null/false). The merchant was read at this request's version (SharedUseCases.findMerchant), so a
 * key revoked on any replica is refused already; one that matches none is tried once more with the
 * merchant read afresh, for a key rotated between that read and this check. A wrong checksum costs
 * one more read; the failed-authentication limits bound how often.
 */
export async function verifiedWithKeysInForce<T>(
  merchants: MerchantFinder,
  merchant: Merchant,
  at: Date,
  verify: (keys: string[]) => T | null | false,
): Promise<T | null> {
  const cached = verify(secretKeysAt(merchant, at));
  if (cached) return cached;
  const fresh = await merchants.findMerchantAfresh(merchant.merchantIdentifier);
  if (!fresh || fresh.secretKey === merchant.secretKey) return null;
  return verify(secretKeysAt(fresh, at)) || null;
}

/** Status API: header `checksum` = HMAC-SHA256(secretKey, raw request body). */
export async function authenticateHeaderChecksum(
  ctx: Context,
  merchants: MerchantFinder,
  merchantIdentifier: string,
  rawBody: Buffer,
  at: Date,
): Promise<Merchant> {
  const presented = ctx.get('checksum');
  if (!presented) throw new ApiError('checksumMissing', 'send the checksum header');
  const merchant = await requireMerchant(merchants, merchantIdentifier);
  if (!(await verifiedWithKeysInForce(merchants, merchant, at, (keys) => checksumMatches(keys, rawBody, presented)))) {
    throw new ApiError('checksumMismatch', undefined, merchantIdentifier);
  }
  return merchant;
}

/** Dynamic QR: body field `checksum` over merchantIdentifier + orderId + amount + productDescription. */
export async function authenticateQrChecksum(
  merchants: MerchantFinder,
  fields: { merchantIdentifier: string; orderId: string; amount: number | string; productDescription: string; checksum?: string },
  at: Date,
): Promise<Merchant> {
  if (!fields.checksum) throw new ApiError('checksumMissing', 'send the checksum field');
  const merchant = await requireMerchant(merchants, fields.merchantIdentifier);
  const checksum = fields.checksum;
  if (
    !(await verifiedWithKeysInForce(merchants, merchant, at, (keys) =>
      checksumMatches(keys, qrChecksumPayload(fields), checksum),
    ))
  ) {
    throw new ApiError('checksumMismatch', undefined, fields.merchantIdentifier);
  }
  return merchant;
}

/** What checking a signed form (`data` + `checksum`) found; each API answers each outcome with its own code. */
export type SignedFormCheck =
  | { kind: 'noChecksum' }
  | { kind: 'notJson' }
  | { kind: 'noMerchant' }
  | { kind: 'mismatch'; merchantIdentifier: string }
  | { kind: 'signed'; merchant: Merchant };

/**
 * A signed form's field `checksum` = HMAC-SHA256 of the exact `data` text under the merchant's keys
 * in force; the merchant is the one `data` names, read leniently: nothing of `data` is read strictly
 * before the checksum has matched. `data` that names no merchant cannot be signed by one.
 */
export async function checkSignedForm(
  merchants: MerchantFinder,
  form: { data: string; checksum?: string },
  at: Date,
): Promise<SignedFormCheck> {
  const checksum = form.checksum;
  if (!checksum) return { kind: 'noChecksum' };
  const unread = jsonObjectOrNull(form.data);
  if (!unread) return { kind: 'notJson' };
  const named = unread.merchantIdentifier;
  if (typeof named !== 'string' || named.length === 0 || named.length > 64) return { kind: 'noMerchant' };
  const merchant = await requireMerchant(merchants, named);
  const signed = await verifiedWithKeysInForce(merchants, merchant, at, (keys) => checksumMatches(keys, form.data, checksum));
  return signed ? { kind: 'signed', merchant } : { kind: 'mismatch', merchantIdentifier: named };
}

/** Ledger, bulk and payment links: header `X-API-Key`. */
export async function authenticateApiKey(ctx: Context, merchants: MerchantFinder, at: Date): Promise<Merchant> {
  const apiKey = ctx.get('x-api-key');
  // The lookup is by hash: the key itself never meets a comparison that could leak timing. Any
  // unrevoked key of the merchant is accepted.
  const merchant = apiKey ? await merchants.findMerchantByApiKeyHash(hashApiKey(apiKey), at) : null;
  if (!merchant) throw new ApiError(apiKey ? 'apiKeyInvalid' : 'apiKeyMissing');
  return merchant;
}
