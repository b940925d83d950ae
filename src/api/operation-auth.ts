import type { z } from 'zod';
import type { Merchant } from '../domain/merchant';
import { ApiError } from '../domain/api-errors';
import {
  authenticateApiKey,
  checkSignedForm,
  authenticateHeaderChecksum,
  authenticateQrChecksum,
} from './middleware/authenticate';
import { validate } from './middleware/body';
import type { AuthScheme, BodyAuthScheme, HeadersAuthScheme, SignedDataForm } from './operation';

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
    from: 'body',
    async authenticate(ctx, deps, { raw, parsed, valid }) {
      const { merchantIdentifier } = (valid as { merchantIdentifier: string } | undefined) ?? validate(caller, parsed);
      return authenticateHeaderChecksum(ctx, deps.useCases.shared, merchantIdentifier, raw, deps.now());
    },
    limitKey: (merchant) => merchant.merchantIdentifier,
  };
}

/** Header `X-API-Key`: any unrevoked key of the merchant, checked before the body is read. */
export const apiKey: HeadersAuthScheme<Merchant> = {
  security: [{ apiKey: [] }],
  from: 'headers',
  authenticate: (ctx, deps) => authenticateApiKey(ctx, deps.useCases.shared, deps.now()),
  limitKey: (merchant) => merchant.merchantIdentifier,
};

/** The signed fields as the merchant concatenated them (a wrong type then simply fails the checksum). */
function asSigned(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/**
 * Body field `checksum` over merchantIdentifier + orderId + amount + productDescription, as sent
 * (the dynamic QR); the merchant is read with `caller` first.
 */
export function signedQrFields(caller: z.ZodType<{ merchantIdentifier: string }>): AuthScheme<Merchant> {
  return {
    bodySignature: 'qrChecksum',
    from: 'body',
    async authenticate(_ctx, deps, { parsed, valid }) {
      const { merchantIdentifier } = (valid as { merchantIdentifier: string } | undefined) ?? validate(caller, parsed);
      const fields = parsed as Record<string, unknown>;
      const signed = {
        merchantIdentifier,
        orderId: asSigned(fields.orderId),
        amount: asSigned(fields.amount),
        productDescription: asSigned(fields.productDescription),
        checksum: typeof fields.checksum === 'string' ? fields.checksum : undefined,
      };
      return authenticateQrChecksum(deps.useCases.shared, signed, deps.now());
    },
    limitKey: (merchant) => merchant.merchantIdentifier,
  };
}

/**
 * A signed form (`data` + `checksum`, checkSignedForm). Refusals are the catalogue's 401s (2010,
 * 2012, 2011), and 2001 for `data` that is not a JSON object.
 */
export const formDataChecksum: BodyAuthScheme<Merchant> = {
  bodySignature: 'formChecksum',
  from: 'body',
  async authenticate(_ctx, deps, { parsed }) {
    const check = await checkSignedForm(deps.useCases.shared, parsed as SignedDataForm, deps.now());
    switch (check.kind) {
      case 'noChecksum':
        throw new ApiError('checksumMissing', 'send the checksum form field');
      case 'notJson':
        throw new ApiError('malformedJson', 'the data field is not a JSON object');
      case 'noMerchant':
        throw new ApiError('unknownMerchant', 'data names no merchantIdentifier');
      case 'mismatch':
        throw new ApiError('checksumMismatch', undefined, check.merchantIdentifier);
      case 'signed':
        return check.merchant;
    }
  },
  limitKey: (merchant) => merchant.merchantIdentifier,
};
