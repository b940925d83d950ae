import { z } from 'zod';
import { MANDATE_FREQUENCIES, MANDATE_MODES } from '../../domain/mandate';
import { MAX_AMOUNT_PAISE } from '../../domain/money';
import {
  emailField,
  emptyAsAbsent,
  indianMobileField,
  merchantIdentifierField,
  modeField,
  orderIdField,
  paiseStringField,
} from './common';

/**
 * The form fields of POST /transactU (mandate create, notify and execute). Like every level of
 * `data`, a Zaakpay-shaped API: fields it does not know are ignored (design.md, Unknown fields).
 */
export const mandateFormSchema = z.object({
  data: z
    .string()
    .min(1)
    .describe('the request (a mandate, or with v=8 a checkout) as a JSON string; the checksum covers these exact characters'),
  checksum: z.string().optional().describe('HMAC-SHA256 (hex) of the exact `data` string with the secret key'),
});

export const SUPPORTED_MANDATE_VERSIONS = ['12', '13'] as const;
/** The versions `POST /transactU` serves: 8 the custom checkout, 12 and 13 UPI AutoPay mandates. */
export const TRANSACT_U_VERSIONS = ['8', ...SUPPORTED_MANDATE_VERSIONS] as const;

const text = (max: number) => z.string().max(max);
/** `yyyy-MM-dd`; the contract's samples also send months and days without zero padding (2026-1-5). */
const looseDate = z.string().regex(/^\d{4}-\d{1,2}-\d{1,2}$/, 'must be a date, yyyy-MM-dd');
const strictDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, yyyy-MM-dd');

export const billingAddress = z.object({
  'first name': text(100).optional(),
  'last name': text(100).optional(),
  address: text(255).optional(),
  city: text(100).optional(),
  state: text(100).optional(),
  country: text(100).optional(),
  pincode: text(10).optional(),
  'Phone Number': text(20).optional(),
});
export const shippingAddress = z.object({
  address: text(255).optional(),
  city: text(100).optional(),
  state: text(100).optional(),
  country: text(100).optional(),
  pincode: text(10).optional(),
});

export const mandateConfigSchema = z.object({
  firstDebit: z.boolean().describe('debit firstDebitAmount as soon as the payer approves'),
  firstDebitAmount: z
    .number()
    .int('must be whole paise')
    .min(1)
    .max(MAX_AMOUNT_PAISE)
    .optional()
    .describe('paise; required when firstDebit is true, at most orderDetail.amount'),
  frequency: z.enum(MANDATE_FREQUENCIES).describe('notify and execute apply to Adhoc only'),
  startDate: strictDate.describe('yyyy-MM-dd (IST), today or later, before endDate'),
  endDate: strictDate.describe('yyyy-MM-dd (IST), after startDate; the mandate expires when this day ends'),
});

const upiMandate = z.object({
  action: z.enum(['create', 'notify', 'execute']).describe('execute confirms a notified debit whose autoExecute was false'),
  payerVpa: z
    .string()
    .min(1)
    .max(2048)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64')
    .describe("the payer's VPA, RSA-encrypted (OAEP or PKCS#1 v1.5) with the key of encryptionKeyId, base64"),
  mandateConfig: mandateConfigSchema.optional().describe('create only, required there'),
  mandateParentOrderId: orderIdField.optional().describe('notify and execute: the create orderId of the mandate'),
  executionDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be yyyy-MM-dd HH:mm:ss')
    .optional()
    .describe('notify: when the debit runs, IST; at least 24 h ahead and outside the peak windows'),
  autoExecute: z.boolean().optional().describe('notify: true (default) debits by itself; false waits for action execute'),
});

/** `data` of POST /transactU, after authentication. */
export const mandateDataSchema = z
  .object({
    merchantIdentifier: merchantIdentifierField,
    encryptionKeyId: z.string().min(1).max(64).describe('the merchant key payerVpa is encrypted with'),
    merchantIpAddress: z.union([z.ipv4(), z.ipv6()]).optional(),
    showMobile: z.enum(['true', 'false']).optional(),
    mode: modeField.optional(),
    returnUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
    orderDetail: z.object({
      orderId: orderIdField,
      amount: paiseStringField.describe('paise: create, the most one debit may take; notify, this debit'),
      currency: z.literal('INR').optional(),
      purpose: z.union([z.string().max(50), z.number().int().min(0).max(99)]).optional(),
      productDescription: z.string().trim().min(1).max(255),
      email: emptyAsAbsent(emailField),
      phone: emptyAsAbsent(indianMobileField),
      txnDate: looseDate.optional().describe('yyyy-MM-dd, zero padding optional'),
    }),
    billingAddress: billingAddress.optional(),
    shippingAddress: shippingAddress.optional(),
    paymentInstrument: z.object({
      paymentMode: z.enum(MANDATE_MODES),
      upiMandate,
    }),
    debitorcredit: z.string().max(20).optional(),
  })
  .superRefine((d, ctx) => {
    const u = d.paymentInstrument.upiMandate;
    const need = (field: string, present: unknown) => {
      if (present === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['paymentInstrument', 'upiMandate', field],
          message: `required for action ${u.action}`,
        });
    };
    if (u.action === 'create') need('mandateConfig', u.mandateConfig);
    if (u.action === 'notify') {
      need('mandateParentOrderId', u.mandateParentOrderId);
      need('executionDate', u.executionDate);
    }
    if (u.action === 'execute') need('mandateParentOrderId', u.mandateParentOrderId);
    const c = u.mandateConfig;
    if (c?.firstDebit && c.firstDebitAmount === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentInstrument', 'upiMandate', 'mandateConfig', 'firstDebitAmount'],
        message: 'required when firstDebit is true',
      });
    }
    if (c?.firstDebitAmount !== undefined && c.firstDebitAmount > Number(d.orderDetail.amount)) {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentInstrument', 'upiMandate', 'mandateConfig', 'firstDebitAmount'],
        message: 'must not exceed orderDetail.amount',
      });
    }
  });
export type MandateData = z.infer<typeof mandateDataSchema>;

const echo = z.record(z.string(), z.unknown());
/** The mandate response (create 1101, notify 1109, and every refusal in the same shape). */
export const mandateResponseSchema = z.object({
  orderDetail: echo.nullable().describe('the request orderDetail echoed, plus amountBreakdown'),
  responseCode: z.string(),
  responseDescription: z.string(),
  doRedirect: z.string(),
  paymentInstrument: z.object({ paymentMode: z.literal('UPI_MANDATE'), sendOtp: z.boolean(), upiMandate: echo }).nullable(),
  bankPostData: echo
    .nullable()
    .describe(
      'collect {txnid}; intent {androidIntentUrl, <app>IntentIosUrl x4, txnid}; QR {link, txnid}; notify {amount, initDateTime}',
    ),
  paymentMode: z.literal('UPI_MANDATE'),
});
export type MandateResponseBody = z.infer<typeof mandateResponseSchema>;
