import { z } from 'zod';
import { CheckoutRefusals } from '../../domain/checkout';
import { EXPRESS_CHECKSUM_FIELDS } from '../../domain/checkout-checksum';
import { V7_RETURN_FIELDS, V8_RETURN_FIELDS } from '../../domain/checkout-return';
import { operation, successError } from '../reference/operation';
import { sandboxReturnFormSchema, sandboxReturnQuerySchema } from '../schemas/sandbox-checkout';
import { checkTxnFormSchema, checkTxnResponseSchema } from '../schemas/check-txn';
import {
  checkoutCancelFormSchema,
  checkoutFieldsSchema,
  checkoutPayFormSchema,
  checkoutResponseSchema,
  legacyQuerySchema,
} from '../schemas/checkout';
import { CheckTxnCodes } from '../../domain/check-txn';
import { EXAMPLE_MERCHANT, exampleExpressForm, exampleLegacyForm, pathParameter, signedDataForm } from '../reference/examples';

const refusals = Object.values(CheckoutRefusals)
  .map((r) => `${r.code} ${r.description} (HTTP ${r.http})`)
  .join('; ');

/** What every checkout entry does once the merchant is authenticated (DECISIONS.md, Checkout). */
export const CHECKOUT_FLOW = `The order is created like any other (payment workflow, status API, ledger, bulk, webhooks; one orderId namespace per merchant) and waits CHECKOUT_EXPIRY_SECONDS for its payer. The answer is a 303 to the hosted checkout page (/checkout/{token}); a browser (Accept text/html) is sent there, where the payer pays (test instruments while the sandbox is on) or cancels (102). Once the order is final, the page posts the signed result to returnUrl (its query kept) by a self-submitting form, with a visible button when script is off; the first showing submits it, later ones leave it to the payer. The same request again while the order waits for its payer answers the same page. A refusal stores nothing: ${refusals}; a used orderId is 128 "Order Id Already Processed with this Merchant." (HTTP 200, as Zaakpay), the order holding it untouched; returnUrl must be http(s) and may be left out when the merchant has a default return URL. A browser sees a refusal as a page, anyone else as JSON. Fields the entry does not know are ignored; an empty field counts as not sent.`;

const RETURNS = `The return to returnUrl carries (V8 and /transactU?v=8) ${V8_RETURN_FIELDS.join(', ')}, then checksum = HMAC-SHA256 of \`key=value&\` of those fields in that order (NA where there is no data); V7 exactly ${V7_RETURN_FIELDS.join(', ')} and the checksum the same way.`;

const expressDescription = `Zaakpay's express checkout: flat fields. \`checksum\` = HMAC-SHA256 (hex) with the secret key of \`key=value&\` for each non-empty field in this order: ${EXPRESS_CHECKSUM_FIELDS.join(', ')}; also accepted over the values as Zaakpay's PHP kits sanitize them (the characters ,#(){}<>\`!$%^=+|\\:'";~[]*& removed, returnUrl keeping #=:&), or over every non-empty field received, ASCII-sorted. The custom checkout's \`data\` + \`checksum\` pair (as /transactU?v=8) is taken too. ${CHECKOUT_FLOW} ${RETURNS}`;

const entryResponses = {
  200: {
    description:
      'a business result: 128 "Order Id Already Processed with this Merchant." (the orderId is used), as JSON or, to a browser, a page',
    schema: checkoutResponseSchema,
    html: true,
  },
  303: { description: 'the order is open: its hosted checkout page (Location /checkout/{token})' },
} as const;

function expressPath(version: 'V8' | 'V7') {
  const common = {
    description: expressDescription,
    bodySignature: 'expressChecksum' as const,
    request: checkoutFieldsSchema,
    responses: entryResponses,
    errors: [400, 401, 413, 415, 503],
    errorEnvelope: checkoutResponseSchema,
    errorPages: true,
  };
  return {
    post: operation({
      ...common,
      summary: `Express checkout ${version}: send the payer to the hosted checkout`,
      in: 'form',
      example: exampleExpressForm(`express-${version}-1001`),
    }),
    get: operation({
      ...common,
      summary: `Express checkout ${version}, the fields as a query string (some apps send it so)`,
      in: 'query',
      example: exampleExpressForm(`express-${version}-1001`),
    }),
  };
}

/** Zaakpay's checkout entries, the hosted page's forms, its legacy status API, and the sandbox's return page. */
export function checkoutPaths(sandboxEnabled: boolean): Record<string, object> {
  const token = { ...pathParameter('token'), schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{32}$' } };
  const pageForm = (summary: string, description: string, request: z.ZodType, example: Record<string, string>) => ({
    post: {
      ...operation({
        summary,
        description,
        in: 'form',
        request,
        example,
        responses: {
          303: { description: 'back to the page, which shows what happened' },
          400: { description: 'the page, saying why (an instrument not accepted, a form not readable)', html: true },
          403: { description: 'a form not posted from the page (no matching cookie, another Origin)', html: true },
          404: { description: 'no such checkout', html: true },
        },
        errors: [405, 413, 503],
        errorEnvelope: checkoutResponseSchema,
      }),
      parameters: [token],
    },
  });
  const sandbox = {
    '/sandbox/v1/checkout/return': {
      post: operation({
        summary: "A merchant's returnUrl for trying the hosted checkout without a merchant site (sandbox)",
        description:
          'Shows, as a page, the fields a checkout returned (in order) and whether the checksum verifies with the key of the merchant named in the query, as V8, V7 or legacy return. Unknown fields are refused (400, 2002); an unknown merchant is 404 (2042).',
        in: 'form',
        query: sandboxReturnQuerySchema,
        request: sandboxReturnFormSchema,
        queryExample: { merchantIdentifier: EXAMPLE_MERCHANT.merchantIdentifier },
        example: {
          orderId: 'checkout-1001',
          amount: '25000',
          responseCode: '100',
          responseDescription: 'The transaction was completed successfully.',
          checksum: '0'.repeat(64),
        },
        responses: { 200: { description: 'the page', html: true } },
        errors: [400, 404, 413, 415, 503],
        errorEnvelope: successError,
      }),
    },
  };
  return {
    ...(sandboxEnabled ? sandbox : {}),
    '/api/paymentTransact/V8': expressPath('V8'),
    '/api/paymentTransact/V7': expressPath('V7'),
    '/transact': {
      post: operation({
        summary: "Zaakpay's legacy checkout: send the payer to the hosted checkout",
        description: `Flat fields (as the express checkout). \`checksum\` = HMAC-SHA256 (hex) with the secret key of every posted field but checksum, each value in single quotes, in the order posted (\`'v1''v2'...\`), or the same over the values as Zaakpay's PHP kits sanitize them. ${CHECKOUT_FLOW} The fields' names, in the order posted, must be an order Zaakpay's kits post (the kit form's order, fields left out allowed, or ASCII-sorted; only those forms' names, each once), else 109 naming the field: the checksum binds values, not names. When only the sanitized values verify, the order is made of them. The return carries exactly amount (paise, every version), orderId, responseCode, responseDescription, in that order, each value free of the characters the PHP kits strip, and checksum = HMAC-SHA256 of the quoted values in that order. A v other than 2 or 3 is 109.`,
        bodySignature: 'legacyChecksum',
        in: 'form',
        query: legacyQuerySchema,
        request: checkoutFieldsSchema,
        queryExample: { v: '3' },
        example: exampleLegacyForm(),
        responses: entryResponses,
        errors: [400, 401, 413, 415, 503],
        errorEnvelope: checkoutResponseSchema,
        errorPages: true,
      }),
    },
    '/checkout/{token}': {
      get: {
        ...operation({
          summary: 'The hosted checkout page (HTML)',
          description:
            "What the payer sees: open (the payer's choices, the UPI QR, the time left, a cancel), in progress (it refreshes itself), or final with the signed return to the merchant. Works without JavaScript; the token is the payer's capability.",
          in: 'query',
          request: z.object({}),
          example: {},
          responses: {
            200: { description: 'the page', html: true },
            404: { description: 'no such checkout', html: true },
          },
          errors: [503],
          errorEnvelope: checkoutResponseSchema,
        }),
        parameters: [token],
      },
    },
    '/checkout/{token}/pay': pageForm(
      "The hosted checkout's pay form",
      'One instrument per form: payerVpa, cardNumber or bankCode (the sandbox test instruments, while the sandbox is on). The order takes one payer only, through its payment workflow.',
      checkoutPayFormSchema,
      { csrf: 'the csrf field of the page', payerVpa: 'success@sandbox' },
    ),
    '/checkout/{token}/cancel': pageForm(
      "The hosted checkout's cancel",
      'The payer cancels: the order fails with 102 (cancelled by the payer) unless it is no longer waiting for a payer, and the result goes back to the merchant.',
      checkoutCancelFormSchema,
      { csrf: 'the csrf field of the page' },
    ),
    '/checkTxn': {
      post: operation({
        summary: "Zaakpay's legacy status API (v=5): one order, its card and its refunds",
        description: `Form fields \`data\` and \`checksum\` = HMAC-SHA256 (hex) of the exact \`data\` text with the secret key. \`data\` is {merchantIdentifier, mode, orderDetail: {orderId}, refundDetail?: {merchantRefId}} as JSON, or unquoted as some PHP kits send it ({merchantIdentifier:X,mode:0,orderDetail:{orderId:Y}}); the checksum is checked over the raw text first. The answer lists the order as the status API's record with orderDetail.product1Description..product4Description and card {cardToken, cardId, cardScheme, first4, last4, bank, cardHashId, paymentMethod} (NA without a card), its responseCode, responseDescription and txnId mirrored at the top level; with a merchantRefId only that refund is listed. Codes: ${Object.values(
          CheckTxnCodes,
        )
          .map((c) => `${c.code} ${c.description} (HTTP ${c.http})`)
          .join('; ')}.`,
        bodySignature: 'formChecksum',
        in: 'form',
        query: z.object({ v: z.string().optional().describe('5 (the version answered; the value is not read)') }),
        request: checkTxnFormSchema,
        queryExample: { v: '5' },
        example: signedDataForm({ mode: '0', orderDetail: { orderId: 'checkout-1001' } }),
        responses: {
          200: { description: 'the order (success true), or none (190, success false)', schema: checkTxnResponseSchema },
        },
        errors: [400, 401, 413, 415, 503],
        errorEnvelope: checkTxnResponseSchema,
      }),
    },
  };
}
