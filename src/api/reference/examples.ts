import { expressChecksumTexts, legacyChecksumTexts } from '../../domain/checkout-checksum';
import { LEGACY_KIT_FORMS } from '../../domain/legacy-kit-forms';
import { hmacSha256Hex, qrChecksumPayload } from '../../domain/checksum';
import { QR_IMAGE_LABEL } from '../../domain/qr-image-address';

/**
 * The merchant every example request of the API reference is signed for. Import it on a gateway
 * with the sandbox (POST /ops/v1/merchants with this merchantIdentifier and secretKey) and the
 * examples authenticate as they stand (test/api/docs.test.ts sends each one).
 */
export const EXAMPLE_MERCHANT = {
  merchantIdentifier: 'b19e8f103bce406cbd3476431b6b7973',
  secretKey: '0678056d96914a8583fb518caf42828a',
} as const;

export const EXAMPLE_NOTE = `Examples are signed for the example merchant (merchantIdentifier ${EXAMPLE_MERCHANT.merchantIdentifier}, secretKey ${EXAMPLE_MERCHANT.secretKey}): import it on a gateway with the sandbox (POST /ops/v1/merchants with both) to send them as they stand.`;

const M = EXAMPLE_MERCHANT.merchantIdentifier;
const sign = (text: string) => hmacSha256Hex(EXAMPLE_MERCHANT.secretKey, text);

/** A form of Zaakpay's kind: `data` (JSON text) and the checksum of exactly that text. */
export function signedDataForm(data: Record<string, unknown>): { data: string; checksum: string } {
  const text = JSON.stringify({ merchantIdentifier: M, ...data });
  return { data: text, checksum: sign(text) };
}

export const exampleStatusRequest = { merchantIdentifier: M, orderId: 'order-1001', version: 13 };

export function exampleQrRequest() {
  const fields = { merchantIdentifier: M, orderId: 'qr-1001', amount: 15000, productDescription: 'Chai and samosa' };
  return { ...fields, checksum: sign(qrChecksumPayload(fields)) };
}

/** The address's `data` is the UPI intent; the checksum covers the label and it percent-encoded, as it stands in the address. */
export function exampleQrImageQuery() {
  const data = 'upi://pay?pa=merchantgateway@sandbox&am=150.00';
  return { mid: M, width: '300', height: '300', data, checksum: sign(`${QR_IMAGE_LABEL}${M}300300${encodeURIComponent(data)}`) };
}

const checkoutFields: [string, string][] = [
  ['merchantIdentifier', M],
  ['orderId', 'checkout-1001'],
  ['amount', '25000'],
  ['currency', 'INR'],
  ['buyerEmail', 'payer@example.com'],
  ['productDescription', 'Cotton kurta'],
  ['returnUrl', 'https://shop.example/zaakpay/return'],
];

export function exampleExpressForm(orderId: string): Record<string, string> {
  const fields = checkoutFields.map(([k, v]) => [k, k === 'orderId' ? orderId : v] as [string, string]);
  return { ...Object.fromEntries(fields), checksum: sign(expressChecksumTexts(fields)[0]) };
}

/** The legacy form as the PHP kit's index page posts it: its 21 fields in its order, empty where not sent. */
const LEGACY_KIT_NAMES = LEGACY_KIT_FORMS.find((f) => f.kit === 'PHP kit (its index page)')!.names;
export function exampleLegacyForm(): Record<string, string> {
  const given = new Map(checkoutFields);
  const fields = LEGACY_KIT_NAMES.map((k) => [k, k === 'orderId' ? 'legacy-1001' : (given.get(k) ?? '')] as [string, string]);
  return { ...Object.fromEntries(fields), checksum: sign(legacyChecksumTexts(fields)[0]) };
}

/** A legacy XML API's form as Zaakpay's older PHP kit posts it: its fields in form order, signed `'v1''v2'...`. */
export function exampleLegacyXmlForm(fields: [string, string][]): Record<string, string> {
  const pairs: [string, string][] = [['merchantIdentifier', M], ...fields];
  return { ...Object.fromEntries(pairs), checksum: sign(legacyChecksumTexts(pairs)[0]) };
}

export const exampleCustomCheckoutForm = () =>
  signedDataForm({
    returnUrl: 'https://shop.example/zaakpay/return',
    orderDetail: { orderId: 'custom-1001', amount: '25000', currency: 'INR', productDescription: 'Cotton kurta' },
  });

/** Path parameters' examples (ids that need not exist: the answer is then 404). */
export const examplePathParameter = {
  token: 'Xq3vJ0a9kS2mB7cT1wE5rY8uI4oP6lZd',
  merchantIdentifier: M,
  deliveryId: `rt:${M}:order-1001`,
  reconciliationId: 'rec-2026-11-23-1',
  keyId: 'ak_5f1c2e9a7b3d4c6e',
  settlementId: `settlement:${M}:2026-11-24`,
} as const;

/** A path parameter of the reference, with its example. */
export const pathParameter = (name: keyof typeof examplePathParameter) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  example: examplePathParameter[name],
});
