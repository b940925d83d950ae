import { checksumMatches, hmacHex, keyValueText, quotedValuesText } from './checksum';
import { SignatureVerificationError } from './signature-error';
import type { CheckoutData, CheckoutFields } from './types';

/**
 * Zaakpay-compatible hosted checkout (the gateway's checkout guide): sign one of the three request forms,
 * render it as a page that posts itself to the gateway from the payer's browser, and verify the
 * signed form the payer's browser brings back to your returnUrl.
 */

/** A form to post from the payer's browser: where, and its fields in order (checksum last). */
export interface SignedForm {
  action: string;
  fields: [string, string][];
}

/** The express checkout's signed fields, in the kits' fixed (ASCII-sorted) order. */
export const EXPRESS_SIGNED_FIELDS = [
  'amount', 'bankid', 'buyerAddress', 'buyerCity', 'buyerCountry', 'buyerEmail', 'buyerFirstName', 'buyerLastName',
  'buyerPhoneNumber', 'buyerPincode', 'buyerState', 'currency', 'debitorcredit', 'isAutoRedirect', 'merchantIdentifier',
  'merchantIpAddress', 'mode', 'orderId', 'paymentOptionTypes', 'product1Description', 'product2Description',
  'product3Description', 'product4Description', 'productDescription', 'productInfo', 'purpose', 'returnUrl', 'shipToAddress',
  'shipToCity', 'shipToCountry', 'shipToFirstname', 'shipToLastname', 'shipToPhoneNumber', 'shipToPincode', 'shipToState',
  'showMobile', 'txnDate', 'txnType', 'zpPayOption',
] as const; // prettier-ignore

/** The V8 return (also /transactU's), in the order posted and signed. */
export const V8_RETURN_FIELDS = [
  'amount', 'bank', 'bankid', 'cardId', 'cardScheme', 'cardToken', 'cardhashid', 'doRedirect', 'orderId', 'paymentMethod',
  'paymentMode', 'responseCode', 'responseDescription', 'productDescription', 'product1Description', 'product2Description',
  'product3Description', 'product4Description', 'pgTransId', 'pgTransTime',
] as const; // prettier-ignore

/** The V7 return: exactly these. */
export const V7_RETURN_FIELDS = [
  'amount', 'bank', 'cardId', 'cardScheme', 'cardToken', 'cardhashid', 'doRedirect', 'orderId', 'paymentMethod',
  'paymentMode', 'responseCode', 'responseDescription',
] as const; // prettier-ignore

const join = (baseUrl: string, path: string) => `${baseUrl.replace(/\/+$/, '')}${path}`;

/** `/transactU?v=8` (custom checkout): `data` as JSON text and its checksum over exactly that text. */
export function signCustomCheckout(baseUrl: string, secretKey: string, data: CheckoutData): SignedForm {
  const text = JSON.stringify(data);
  return {
    action: join(baseUrl, '/transactU?v=8'),
    fields: [
      ['data', text],
      ['checksum', hmacHex(secretKey, text)],
    ],
  };
}

/** Express checkout fields: every value text (paise as a string). */
export type ExpressCheckoutFields = Omit<CheckoutFields, 'checksum'>;

/**
 * `/api/paymentTransact/V8` or `/V7` (express checkout): the fields as given, and `checksum` over
 * `key=value&` of each non-empty signed field in the fixed order.
 */
export function signExpressCheckout(
  baseUrl: string,
  secretKey: string,
  fields: ExpressCheckoutFields,
  version: 'V8' | 'V7' = 'V8',
): SignedForm {
  const given = Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string');
  const value = new Map(given);
  const signed = EXPRESS_SIGNED_FIELDS.filter((k) => (value.get(k) ?? '') !== '').map((k) => [k, value.get(k)!] as const);
  return {
    action: join(baseUrl, `/api/paymentTransact/${version}`),
    fields: [...given, ['checksum', hmacHex(secretKey, keyValueText(signed))]],
  };
}

/**
 * The form of Zaakpay's PHP kit (and WooCommerce 2.0, which posts the same names to `?v=2`): the
 * gateway reads a legacy form only with the field names of one of Zaakpay's kits, in its order,
 * because the legacy checksum binds values, not names.
 */
export const LEGACY_CHECKOUT_FIELDS = [
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
  'txnDate',
] as const;

/**
 * The legacy `/transact`: every field of LEGACY_CHECKOUT_FIELDS posted in that order (empty when
 * not given), `checksum` over each value in single quotes, in that order. Values must hold no
 * single quote, and fields outside the list are refused. The plain return carries orderId,
 * responseCode and responseDescription; `v=2`'s carries the amount first: compare it.
 */
export function signLegacyCheckout(
  baseUrl: string,
  secretKey: string,
  fields: Record<string, string>,
  v?: '2' | '3',
): SignedForm {
  const listed: readonly string[] = LEGACY_CHECKOUT_FIELDS;
  const stray = Object.keys(fields).find((k) => !listed.includes(k));
  if (stray !== undefined) throw new TypeError(`${stray}: not a field of the legacy form (${listed.join(', ')})`);
  const quoted = Object.keys(fields).find((k) => fields[k]!.includes("'"));
  if (quoted !== undefined) throw new TypeError(`${quoted}: a legacy form's values cannot hold a single quote`);
  const pairs = listed.map((k) => [k, fields[k] ?? ''] as [string, string]);
  return {
    action: join(baseUrl, `/transact${v ? `?v=${v}` : ''}`),
    fields: [...pairs, ['checksum', hmacHex(secretKey, quotedValuesText(pairs))]],
  };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A page that posts the form to the gateway by itself (with a visible button when script is off),
 * every value HTML-escaped. Serve it to the payer's browser as text/html.
 */
export function autoSubmitFormHtml(form: SignedForm, title = 'Redirecting to payment'): string {
  const inputs = form.fields.map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<form id="gateway-checkout" method="post" action="${escapeHtml(form.action)}">
${inputs}
<noscript><button type="submit">Continue to payment</button></noscript>
</form>
<script>document.getElementById('gateway-checkout').submit();</script>
</body></html>
`;
}

/** A verified checkout return: which form it was, and its fields (checksum left out). */
export interface CheckoutReturn {
  kind: 'V8' | 'V7' | 'legacy';
  fields: Record<string, string>;
  orderId: string;
  responseCode: string;
  responseDescription: string;
  /** True when responseCode is 100 (paid). */
  paid: boolean;
}

/**
 * Verifies the form posted back to your returnUrl (V8 and /transactU, V7, or legacy) over the
 * values exactly as posted. `posted` is the parsed urlencoded body (as Express or Koa body parsers
 * give it), a URLSearchParams, or the raw body text, whose order the legacy form's checksum needs
 * (an object keeps its insertion order, which the body parsers take from the wire). Throws
 * SignatureVerificationError when no form's checksum matches.
 */
export function verifyCheckoutReturn(
  secretKey: string,
  posted: Record<string, unknown> | URLSearchParams | string,
): CheckoutReturn {
  const pairs: [string, string][] =
    typeof posted === 'string'
      ? [...new URLSearchParams(posted)]
      : posted instanceof URLSearchParams
        ? [...posted]
        : Object.entries(posted).filter((e): e is [string, string] => typeof e[1] === 'string');
  const value = new Map(pairs);
  const presented = value.get('checksum');
  const signed = (names: readonly string[]) => keyValueText(names.map((k) => [k, value.get(k) ?? ''] as const));
  const candidates = [
    ['V8', signed(V8_RETURN_FIELDS)],
    ['V7', signed(V7_RETURN_FIELDS)],
    ['legacy', quotedValuesText(pairs.filter(([k]) => k !== 'checksum'))],
  ] as const;
  const kind = candidates.find(([, text]) => checksumMatches(secretKey, text, presented))?.[0];
  if (!kind) throw new SignatureVerificationError('the checkout return checksum does not match');
  const fields = Object.fromEntries(pairs.filter(([k]) => k !== 'checksum'));
  return {
    kind,
    fields,
    orderId: fields.orderId ?? '',
    responseCode: fields.responseCode ?? '',
    responseDescription: fields.responseDescription ?? '',
    paid: fields.responseCode === '100',
  };
}
