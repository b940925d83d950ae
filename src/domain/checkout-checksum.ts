import { checksumMatches, type VerifyingKeys } from './checksum';

/**
 * The request checksums of Zaakpay's checkout entries (design.md, Checkout), as the public kits
 * compute them. Each scheme yields the candidate texts a genuine request may have been signed over;
 * a checksum is accepted when it is the HMAC-SHA256 of one of them (each compared in constant time).
 */

/** A form's fields in the order they were posted (the legacy scheme signs them in that order). */
export type FormPairs = readonly (readonly [string, string])[];

/**
 * The express checkout's signed fields (`/api/paymentTransact/V8` and `/V7`), in their fixed order:
 * the kits' list, with isAutoRedirect and paymentOptionTypes in their sorted places. The list is
 * ASCII-sorted, so a field is signed where its name sorts.
 */
export const EXPRESS_CHECKSUM_FIELDS = [
  'amount',
  'bankid',
  'buyerAddress',
  'buyerCity',
  'buyerCountry',
  'buyerEmail',
  'buyerFirstName',
  'buyerLastName',
  'buyerPhoneNumber',
  'buyerPincode',
  'buyerState',
  'currency',
  'debitorcredit',
  'isAutoRedirect',
  'merchantIdentifier',
  'merchantIpAddress',
  'mode',
  'orderId',
  'paymentOptionTypes',
  'product1Description',
  'product2Description',
  'product3Description',
  'product4Description',
  'productDescription',
  'productInfo',
  'purpose',
  'returnUrl',
  'shipToAddress',
  'shipToCity',
  'shipToCountry',
  'shipToFirstname',
  'shipToLastname',
  'shipToPhoneNumber',
  'shipToPincode',
  'shipToState',
  'showMobile',
  'txnDate',
  'txnType',
  'zpPayOption',
] as const;

/** What Zaakpay's PHP kits strip from every value before signing it (`Checksum::sanitizedParam`). */
const PHP_SANITIZED = /[,#(){}<>`!$%^=+|\\:'";~[\]*&]/g;
/** The same for returnUrl (`Checksum::sanitizedURL`), which keeps `#`, `=`, `:` and `&`. */
const PHP_SANITIZED_URL = /[,(){}<>`!$%^+|\\'";~[\]*]/g;

/** A value as the PHP kits sign (and post) it. */
export function phpSanitized(name: string, value: string): string {
  return value.replace(name === 'returnUrl' ? PHP_SANITIZED_URL : PHP_SANITIZED, '');
}

const keyValues = (pairs: FormPairs) => pairs.map(([k, v]) => `${k}=${v}&`).join('');
const sanitizedPairs = (pairs: FormPairs) => pairs.map(([k, v]) => [k, phpSanitized(k, v)] as const);

/**
 * Express checkout: `key=value&` for each non-empty field of the fixed list, over the raw values or
 * over PHP-sanitized ones; or every non-empty field received (but the checksum), ASCII-sorted.
 */
export function expressChecksumTexts(pairs: FormPairs): string[] {
  const value = new Map(pairs);
  const listed = EXPRESS_CHECKSUM_FIELDS.filter((k) => (value.get(k) ?? '') !== '').map((k) => [k, value.get(k)!] as const);
  const sorted = pairs.filter(([k, v]) => k !== 'checksum' && v !== '').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [keyValues(listed), keyValues(sanitizedPairs(listed)), keyValues(sorted)];
}

/** The text a legacy checksum covers: every value in single quotes, in order. */
export const quotedValues = (pairs: FormPairs) => pairs.map(([, v]) => `'${v}'`).join('');
/** The first field whose value holds a single quote: with one, `'a''b'` also reads as the one value `a''b`. */
const quoteIn = (pairs: FormPairs) => pairs.find(([, v]) => v.includes("'"))?.[0];

/**
 * Legacy `/transact` (and the legacy XML APIs): every posted field but the checksum, each value in
 * single quotes, in the order posted; over the raw values only when none holds a single quote (so
 * the text splits into the signed values one way only), and over the PHP-sanitized values (which
 * hold none).
 */
export function legacyChecksumTexts(pairs: FormPairs): string[] {
  const fields = pairs.filter(([k]) => k !== 'checksum');
  const sanitized = quotedValues(sanitizedPairs(fields));
  return quoteIn(fields) === undefined ? [quotedValues(fields), sanitized] : [sanitized];
}

/**
 * What verifies a legacy form: its values as signed (raw, or the PHP-sanitized ones when only those
 * verify, as signedExpressFields); `quoted` names a field when only the raw text verifies and a
 * value holds a single quote (the form cannot be read one way only); null when nothing verifies.
 */
export function signedLegacyFields(
  keys: VerifyingKeys,
  pairs: FormPairs,
  presented: string,
): { signed: FormPairs } | { quoted: string } | null {
  const fields = pairs.filter(([k]) => k !== 'checksum');
  const sanitized = sanitizedPairs(fields);
  const quoted = quoteIn(fields);
  const rawMatches = checksumMatches(keys, quotedValues(fields), presented);
  if (rawMatches && quoted === undefined) return { signed: fields };
  if (checksumMatches(keys, quotedValues(sanitized), presented)) return { signed: sanitized };
  return rawMatches ? { quoted: quoted! } : null;
}

/**
 * The fields an order is made of once its checksum verified: the values as signed. When only the
 * PHP-sanitized text matched, the sanitized values are the ones the merchant signed, so the order
 * takes those: a payer who adds stripped characters to a signed value (a `\` that shortens a
 * returnUrl's host in a browser) changes nothing. Null when no scheme verifies.
 */
export function signedExpressFields(keys: VerifyingKeys, pairs: FormPairs, presented: string): FormPairs | null {
  const [fixed, sanitized, sorted] = expressChecksumTexts(pairs);
  if (checksumMatchesAny(keys, [fixed, sorted], presented)) return pairs;
  return checksumMatches(keys, sanitized, presented) ? sanitizedPairs(pairs) : null;
}

/** True when `presented` is the HMAC-SHA256 of one of the candidate texts. Every candidate is compared. */
export function checksumMatchesAny(secretKey: VerifyingKeys, texts: readonly string[], presented: string): boolean {
  return [...new Set(texts)].map((t) => checksumMatches(secretKey, t, presented)).includes(true);
}
