import { checksumMatches, type VerifyingKeys } from './checksum';

/**
 * The request checksums of Zaakpay's checkout entries (DECISIONS.md, Checkout), as the public kits
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

/**
 * Express checkout: `key=value&` for each non-empty field of the fixed list, over the raw values or
 * over PHP-sanitized ones; or every non-empty field received (but the checksum), ASCII-sorted.
 */
export function expressChecksumTexts(pairs: FormPairs): string[] {
  const value = new Map(pairs);
  const listed = EXPRESS_CHECKSUM_FIELDS.filter((k) => (value.get(k) ?? '') !== '').map((k) => [k, value.get(k)!] as const);
  const sorted = pairs.filter(([k, v]) => k !== 'checksum' && v !== '').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [keyValues(listed), keyValues(listed.map(([k, v]) => [k, phpSanitized(k, v)] as const)), keyValues(sorted)];
}

/** Legacy `/transact`: every posted field but the checksum, each value in single quotes, in the order posted. */
export function legacyChecksumTexts(pairs: FormPairs): string[] {
  const fields = pairs.filter(([k]) => k !== 'checksum');
  return [fields.map(([, v]) => `'${v}'`).join(''), fields.map(([k, v]) => `'${phpSanitized(k, v)}'`).join('')];
}

/** True when `presented` is the HMAC-SHA256 of one of the candidate texts. Every candidate is compared. */
export function checksumMatchesAny(secretKey: VerifyingKeys, texts: readonly string[], presented: string): boolean {
  return [...new Set(texts)].map((t) => checksumMatches(secretKey, t, presented)).includes(true);
}
