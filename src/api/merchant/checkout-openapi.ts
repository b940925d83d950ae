import { CheckoutRefusals } from '../../domain/checkout';
import { EXPRESS_CHECKSUM_FIELDS } from '../../domain/checkout-checksum';
import { V7_RETURN_FIELDS, V8_RETURN_FIELDS } from '../../domain/checkout-return';
import { checkoutResponseSchema, legacyQuerySchema } from '../schemas/checkout';
import type { OperationReference } from '../operation';
import { exampleExpressForm, exampleLegacyForm } from '../reference/examples';

// One entry per code (two refusals share 109); every one is HTTP 200, as Zaakpay answers.
const refusals = [...new Map(Object.values(CheckoutRefusals).map((r) => [r.code, r.description])).entries()]
  .map(([code, description]) => `${code} ${description}`)
  .join('; ');

/** What every checkout entry does once the merchant is authenticated (design.md, Checkout). */
export const CHECKOUT_FLOW = `The order is created like any other (payment workflow, status API, ledger, bulk, webhooks; one orderId namespace per merchant) and waits CHECKOUT_EXPIRY_SECONDS for its payer. The answer is a 303 to the hosted checkout page (/checkout/{token}); a browser (Accept text/html) is sent there, where the payer pays (test instruments while the sandbox is on) or cancels (102). Once the order is final, the page posts the signed result to returnUrl (its query kept) by a self-submitting form, with a visible button when script is off; the first showing submits it, later ones leave it to the payer. The same request again while the order waits for its payer answers the same page. A refusal stores nothing and is HTTP 200 with its code in the body, as Zaakpay answers (only 413, 415, 429 with Retry-After and 503 keep their status lines): ${refusals}; a used orderId is 128 "Order Id Already Processed with this Merchant." (HTTP 200, as Zaakpay), the order holding it untouched; returnUrl must be http(s) and may be left out when the merchant has a default return URL. A browser sees a refusal as a page, anyone else as JSON. Fields the entry does not know are ignored; an empty field counts as not sent.`;

const RETURNS = `The return to returnUrl carries (V8 and /transactU?v=8) ${V8_RETURN_FIELDS.join(', ')}, then checksum = HMAC-SHA256 of \`key=value&\` of those fields in that order (NA where there is no data); V7 exactly ${V7_RETURN_FIELDS.join(', ')} and the checksum the same way.`;

const expressDescription = `Zaakpay's express checkout: flat fields. \`checksum\` = HMAC-SHA256 (hex) with the secret key of \`key=value&\` for each non-empty field in this order: ${EXPRESS_CHECKSUM_FIELDS.join(', ')}; also accepted over the values as Zaakpay's PHP kits sanitize them (the characters ,#(){}<>\`!$%^=+|\\:'";~[]*& removed, returnUrl keeping #=:&), or over every non-empty field received, ASCII-sorted. The custom checkout's \`data\` + \`checksum\` pair (as /transactU?v=8) is taken too. ${CHECKOUT_FLOW} ${RETURNS}`;

const entryResponses = {
  200: {
    description:
      'a refusal with its code (101, 108, 109, 128 "Order Id Already Processed with this Merchant.", 180, 182), as JSON or, to a browser, a page',
    schema: checkoutResponseSchema,
    html: true,
  },
  303: { description: 'the order is open: its hosted checkout page (Location /checkout/{token})' },
} as const;

/** The express checkout's entry (its fields a form, or a GET's query string; the request and signature its operation's). */
export function expressReference(version: 'V8' | 'V7', method: 'post' | 'get'): OperationReference {
  return {
    summary:
      method === 'post'
        ? `Express checkout ${version}: send the payer to the hosted checkout`
        : `Express checkout ${version}, the fields as a query string (some apps send it so)`,
    description: expressDescription,
    responses: entryResponses,
    errors: [413, 415, 429, 503],
    errorEnvelope: checkoutResponseSchema,
    errorPages: true,
    example: exampleExpressForm(`express-${version}-1001`),
  };
}

/** The legacy checkout's entry. */
export const legacyTransactReference: OperationReference = {
  summary: "Zaakpay's legacy checkout: send the payer to the hosted checkout",
  description: `Flat fields (as the express checkout). \`checksum\` = HMAC-SHA256 (hex) with the secret key of every posted field but checksum, each value in single quotes, in the order posted (\`'v1''v2'...\`), or the same over the values as Zaakpay's PHP kits sanitize them. ${CHECKOUT_FLOW} The fields' names, in the order posted, must be exactly one of the sequences Zaakpay's kits and shop plugins post to this endpoint (PHP, JSP, Python, Ruby, WordPress core, Magento, CS-Cart, X-Cart, WHMCS, osCommerce with or without its image button's x and y after the checksum, Zen Cart with its securityToken first, VirtueMart 1.2 and 2, CubeCart; ?v=2 takes WooCommerce 2.0's only); a raw checksum counts only when no value holds a single quote; a form whose values read as another valid order under another kit's names is refused: each of these is 109 naming the field, with HTTP 200. When only the sanitized values verify, the order is made of them. The return carries exactly orderId, responseCode, responseDescription (?v=2: amount in paise first), in that order, each value free of the characters the PHP kits strip, and checksum = HMAC-SHA256 of the quoted values in that order. A v other than 2 or 3 is 109.`,
  query: legacyQuerySchema,
  queryExample: { v: '3' },
  example: exampleLegacyForm(),
  responses: entryResponses,
  errors: [413, 415, 429, 503],
  errorEnvelope: checkoutResponseSchema,
  errorPages: true,
};
