import { checksumMatches, hmacSha256Hex, type VerifyingKeys } from './checksum';
import { phpSanitized } from './checkout-checksum';
import type { Transaction } from './transaction';
import { realtimeEntry } from './webhook';

/**
 * Where a hosted checkout came from decides what its return to the merchant carries
 * (design.md, Checkout: the return): `/transactU?v=8` and `/api/paymentTransact/V8` the V8
 * fields, `/V7` its shorter list, the legacy `/transact` three quoted fields (`v=2` four).
 */
export const CHECKOUT_ENTRIES = ['transactU', 'V8', 'V7', 'transact', 'transactV2', 'transactV3'] as const;
export type CheckoutEntry = (typeof CHECKOUT_ENTRIES)[number];

/** The V8 return's fields, in the order they are posted and signed. */
export const V8_RETURN_FIELDS = [
  'amount',
  'bank',
  'bankid',
  'cardId',
  'cardScheme',
  'cardToken',
  'cardhashid',
  'doRedirect',
  'orderId',
  'paymentMethod',
  'paymentMode',
  'responseCode',
  'responseDescription',
  'productDescription',
  'product1Description',
  'product2Description',
  'product3Description',
  'product4Description',
  'pgTransId',
  'pgTransTime',
] as const;

/** The legacy `/transact` return (plain and `?v=3`) posts exactly these; `?v=2` the amount first. */
export const LEGACY_RETURN_FIELDS = ['orderId', 'responseCode', 'responseDescription'] as const;
export const LEGACY_V2_RETURN_FIELDS = ['amount', ...LEGACY_RETURN_FIELDS] as const;

/** V7 posts exactly these. */
export const V7_RETURN_FIELDS = [
  'amount',
  'bank',
  'cardId',
  'cardScheme',
  'cardToken',
  'cardhashid',
  'doRedirect',
  'orderId',
  'paymentMethod',
  'paymentMode',
  'responseCode',
  'responseDescription',
] as const;

/**
 * The signed fields posted back to the merchant's returnUrl once the checkout's order is final, in
 * order, `checksum` last. V8 and V7: the real-time webhook's values (NA where there is no data),
 * signed as `key=value&` of each field in order. Legacy: exactly orderId, responseCode,
 * responseDescription (the plugins verify those three), and `?v=2` (WooCommerce 2.0, which
 * compares the amount) amount in paise first; each value free of the characters Zaakpay's PHP kits
 * strip (so a kit signing the sanitized value agrees), signed as the quoted values in that order.
 */
export function checkoutReturnFields(entry: CheckoutEntry, t: Transaction, secretKey: string): [string, string][] {
  const entryValues = realtimeEntry(t);
  if (entry === 'transact' || entry === 'transactV2' || entry === 'transactV3') {
    const names = entry === 'transactV2' ? LEGACY_V2_RETURN_FIELDS : LEGACY_RETURN_FIELDS;
    const clean = names.map((k) => [k, phpSanitized(k, entryValues[k])] as [string, string]);
    return [...clean, ['checksum', hmacSha256Hex(secretKey, clean.map(([, v]) => `'${v}'`).join(''))]];
  }
  const names = entry === 'V7' ? V7_RETURN_FIELDS : V8_RETURN_FIELDS;
  const fields = names.map((k) => [k, entryValues[k] ?? 'NA'] as [string, string]);
  return [...fields, ['checksum', hmacSha256Hex(secretKey, fields.map(([k, v]) => `${k}=${v}&`).join(''))]];
}

/**
 * Which return a posted one is, when its checksum verifies with the merchant's key: the V8 or V7
 * fields signed `key=value&` in their order, or the legacy quoted values; null when none verifies.
 */
export function verifiedReturnKind(
  secretKey: VerifyingKeys,
  pairs: readonly (readonly [string, string])[],
): 'V8' | 'V7' | 'legacy' | null {
  const value = new Map(pairs);
  const presented = value.get('checksum') ?? '';
  const signed = (names: readonly string[]) => names.map((k) => `${k}=${value.get(k) ?? ''}&`).join('');
  const legacy = pairs
    .filter(([k]) => k !== 'checksum')
    .map(([, v]) => `'${v}'`)
    .join('');
  const candidates = [
    ['V8', signed(V8_RETURN_FIELDS)],
    ['V7', signed(V7_RETURN_FIELDS)],
    ['legacy', legacy],
  ] as const;
  return candidates.find(([, text]) => checksumMatches(secretKey, text, presented))?.[0] ?? null;
}
