import { z } from 'zod';
import { CHECKOUT_PAYMENT_MODES } from '../../domain/checkout';
import { EXPRESS_CHECKSUM_FIELDS } from '../../domain/checkout-checksum';
import { emailField, merchantIdentifierField, modeField, orderIdField, paiseStringField, returnUrlField } from './common';
import { billingAddress, shippingAddress } from './mandates';

/**
 * Zaakpay's checkout entries (design.md, Checkout). Like every Zaakpay-shaped API, fields they do
 * not know are ignored. The flat forms' kits post every field of their form, the empty ones too:
 * an empty field counts as not sent.
 */
const text = (max: number) => z.string().max(max);
const orEmpty = <S extends z.ZodType>(s: S) => z.union([s, z.literal('')]);
const checksumField = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters');
const modePattern = new RegExp(`^(${CHECKOUT_PAYMENT_MODES.join('|')})$`, 'i');

/** `data` of `POST /transactU?v=8` (custom checkout): the mandate request's shape without upiMandate. */
export const checkoutDataSchema = z.object({
  merchantIdentifier: merchantIdentifierField,
  showMobile: text(10).optional(),
  mode: orEmpty(modeField).optional(),
  returnUrl: returnUrlField.optional().describe("where the payer's browser is sent back; the merchant's default when absent"),
  orderDetail: z.object({
    orderId: orderIdField,
    amount: paiseStringField.describe('paise, as a string'),
    currency: z.literal('INR').optional(),
    productDescription: text(255).optional(),
    email: orEmpty(emailField).optional(),
    phone: text(20).optional(),
    firstName: text(100).optional(),
    lastName: text(100).optional(),
    extra1: text(255).optional(),
    extra2: text(255).optional(),
    extra3: text(255).optional(),
    extra4: text(255).optional(),
    extra5: text(255).optional(),
    product1Description: text(255).optional(),
    product2Description: text(255).optional(),
    product3Description: text(255).optional(),
    product4Description: text(255).optional(),
  }),
  paymentInstrument: z
    .object({
      paymentMode: z
        .string()
        .regex(modePattern, `must be one of ${CHECKOUT_PAYMENT_MODES.join(', ')} (any case)`)
        .optional()
        .describe('absent: the page offers every choice; UPIAPP and upiqr from a server are answered in JSON (208)'),
      netbanking: z
        .object({ bankid: text(255).optional().describe("a bank code, or the payer's VPA for UPI collect") })
        .optional(),
    })
    .optional(),
  billingAddress: billingAddress.optional(),
  shippingAddress: shippingAddress.optional(),
});
export type CheckoutData = z.infer<typeof checkoutDataSchema>;

/**
 * The flat fields of the express checkout (`/api/paymentTransact/V8`, `/V7`) and the legacy
 * `/transact`. Every field of the express checksum list is known; productDescription is optional,
 * as in the kits.
 */
const flatFields = Object.fromEntries(EXPRESS_CHECKSUM_FIELDS.map((k) => [k, text(255).optional()])) as Record<
  (typeof EXPRESS_CHECKSUM_FIELDS)[number],
  z.ZodOptional<z.ZodString>
>;
export const checkoutFieldsSchema = z.object({
  ...flatFields,
  merchantIdentifier: merchantIdentifierField,
  orderId: orderIdField,
  amount: paiseStringField.describe('paise, as a string'),
  mode: orEmpty(modeField).optional(),
  currency: orEmpty(z.literal('INR')).optional(),
  buyerEmail: orEmpty(emailField).optional(),
  returnUrl: orEmpty(returnUrlField)
    .optional()
    .describe("where the payer's browser is sent back; the merchant's default when absent"),
  productDescription: text(255).optional(),
  debitorcredit: text(20)
    .optional()
    .describe(
      'narrows the page: credit, debit or card; netbanking; upi (bankid the VPA); upiqr; upiapp; anything else offers every choice',
    ),
  bankid: text(255).optional().describe("a bank code for net banking, or the payer's VPA for UPI collect"),
  paymentMode: text(20).optional().describe('the same as debitorcredit, where a kit sends it'),
  checksum: checksumField.describe('see the operation: the fields signed depend on the entry'),
});
export type CheckoutFields = z.infer<typeof checkoutFieldsSchema>;

/** The JSON answer of a checkout entry: a UPI intent or QR (208), or a refusal (bankPostData null). */
export const checkoutResponseSchema = z.object({
  responseCode: z
    .string()
    .describe('208 processing (a UPI intent or QR to pay); 101, 108, 109, 128 (orderId used), 180, 182 a refusal'),
  responseDescription: z.string(),
  doRedirect: z.string(),
  orderDetail: z.record(z.string(), z.unknown()).nullable().describe('the request orderDetail, echoed'),
  paymentInstrument: z.record(z.string(), z.unknown()).nullable(),
  paymentMode: z.string().nullable(),
  bankPostData: z
    .record(z.string(), z.string())
    .nullable()
    .describe(
      'UPIAPP {androidIntentUrl, gpayIntentIosUrl, phonepeIntentIosUrl, paytmIntentIosUrl, mbkIntentIosUrl, txnid}; upiqr {link (base64 PNG of the intent), txnid}',
    ),
});
export type CheckoutResponseBody = z.infer<typeof checkoutResponseSchema>;

/** The legacy form's version (every version's return carries the amount). */
export const legacyQuerySchema = z.object({
  v: z.enum(['2', '3']).optional().describe("Zaakpay's legacy form versions; every version's return carries amount"),
});

/** The hosted page's pay form (one instrument per form) and cancel form, as the page posts them. */
export const checkoutPayFormSchema = z.object({
  csrf: z.string().describe('the token the page was served with (also its SameSite=Strict cookie)'),
  payerVpa: z.string().max(255).optional().describe('UPI: success@sandbox, failure@sandbox or noanswer@sandbox'),
  cardNumber: z.string().max(32).optional().describe('4012001037141112 pays, 4000000000000002 is declined'),
  bankCode: z.string().max(16).optional().describe('SBIN pays, FAIL is declined'),
});
export const checkoutCancelFormSchema = z.object({ csrf: z.string() });
