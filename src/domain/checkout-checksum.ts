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

/** Legacy `/transact`: every posted field but the checksum, each value in single quotes, in the order posted. */
export function legacyChecksumTexts(pairs: FormPairs): string[] {
  const fields = pairs.filter(([k]) => k !== 'checksum');
  return [
    fields.map(([, v]) => `'${v}'`).join(''),
    sanitizedPairs(fields)
      .map(([, v]) => `'${v}'`)
      .join(''),
  ];
}

/**
 * The fields an order is made of once its checksum verified: the values as signed. When only the
 * PHP-sanitized text matched, the sanitized values are the ones the merchant signed, so the order
 * takes those: a payer who adds stripped characters to a signed value (a `\` that shortens a
 * returnUrl's host in a browser) changes nothing. Null when no scheme verifies.
 */
export function signedExpressFields(keys: VerifyingKeys, pairs: FormPairs, presented: string): FormPairs | null {
  const [fixed, sanitized, sorted] = expressChecksumTexts(pairs);
  if (checksumMatchesAny(keys, [fixed!, sorted!], presented)) return pairs;
  return checksumMatches(keys, sanitized!, presented) ? sanitizedPairs(pairs) : null;
}

export function signedLegacyFields(keys: VerifyingKeys, pairs: FormPairs, presented: string): FormPairs | null {
  const [raw, sanitized] = legacyChecksumTexts(pairs);
  if (checksumMatches(keys, raw!, presented)) return pairs;
  return checksumMatches(keys, sanitized!, presented) ? sanitizedPairs(pairs) : null;
}

/**
 * Zaakpay's legacy kit form (`posttozaakpay.php` of the PHP kit, which the JSP and Magento kits
 * copy), in the order it posts its fields; a merchant's form leaves out the ones it does not send.
 */
export const LEGACY_FORM_FIELDS = [
  'merchantIdentifier',
  'orderId',
  'returnUrl',
  'buyerEmail',
  'buyerFirstName',
  'buyerLastName',
  'buyerAddress',
  'buyerCity',
  'buyerState',
  'buyerCountry',
  'buyerPincode',
  'buyerPhoneNumber',
  'txnType',
  'zpPayOption',
  'mode',
  'currency',
  'amount',
  'merchantIpAddress',
  'purpose',
  'productDescription',
  'product1Description',
  'product2Description',
  'product3Description',
  'product4Description',
  'shipToAddress',
  'shipToCity',
  'shipToState',
  'shipToCountry',
  'shipToPincode',
  'shipToPhoneNumber',
  'shipToFirstname',
  'shipToLastname',
  'txnDate',
] as const;

/** What a sorted legacy form may carry: the kit form's fields, the express list's, and paymentMode. */
const LEGACY_KNOWN = new Set<string>([...LEGACY_FORM_FIELDS, ...EXPRESS_CHECKSUM_FIELDS, 'paymentMode']);
const LEGACY_RANK = new Map<string, number>(LEGACY_FORM_FIELDS.map((k, i) => [k, i]));

/**
 * The legacy checksum signs values, not names: a payer could re-post a signed form with a signed
 * `900` renamed `amount`. So a legacy form is accepted only when its field names (but checksum), in
 * the order posted, are an order the known kits post (DECISIONS.md, Checkout): the kit form's order
 * (fields left out allowed), or ASCII-sorted, and only names those forms carry (a name posted twice
 * is refused by the form parser).
 * Returns why not (naming the first field out of place), or null.
 */
export function legacyFieldOrderProblem(pairs: FormPairs): { field: string; why: string } | null {
  const names = pairs.map(([k]) => k).filter((k) => k !== 'checksum');
  const unknown = names.find((k) => !LEGACY_KNOWN.has(k));
  if (unknown !== undefined) {
    return { field: unknown, why: "not a field of Zaakpay's checkout forms (the legacy checksum binds values, not names)" };
  }
  const firstOutOf = (before: (a: string, b: string) => boolean) => names.find((k, i) => i > 0 && !before(names[i - 1]!, k));
  const rank = (k: string) => LEGACY_RANK.get(k) ?? Infinity;
  const outOfKitOrder = firstOutOf((a, b) => rank(a) < rank(b));
  const outOfSorted = firstOutOf((a, b) => a < b);
  if (outOfKitOrder === undefined || outOfSorted === undefined) return null;
  return {
    // The kit's order is the likelier intent of a form whose every name is on the kit's form.
    field: names.every((k) => LEGACY_RANK.has(k)) ? outOfKitOrder : outOfSorted,
    why: "out of order: a legacy form posts its fields in the order of Zaakpay's kit form, or sorted by name",
  };
}

/** True when `presented` is the HMAC-SHA256 of one of the candidate texts. Every candidate is compared. */
export function checksumMatchesAny(secretKey: VerifyingKeys, texts: readonly string[], presented: string): boolean {
  return [...new Set(texts)].map((t) => checksumMatches(secretKey, t, presented)).includes(true);
}
