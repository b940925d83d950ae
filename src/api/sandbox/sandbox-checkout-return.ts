import { ApiError } from '../../domain/api-errors';
import { verifiedReturnKind } from '../../domain/checkout-return';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { defineOperation, HtmlPage, type FormFields } from '../operation';
import { layout, messagePage } from '../pages/layout';
import { sandboxReturnFormSchema, sandboxReturnQuerySchema } from '../schemas/sandbox-checkout';
import { html } from '../pages/html';
import { anyTester } from './sandbox-caller';
import { sandboxCheckoutReturnReference } from './sandbox-checkout-return-openapi';

/**
 * `POST /sandbox/v1/checkout/return?merchantIdentifier=...`: a merchant's returnUrl for trying the
 * hosted checkout without a merchant site (`npm start` prints a checkout that returns here). Shows
 * what the return posted, in order, and whether its checksum verifies with the merchant's key, as
 * the merchant's own code would check it. Sandbox only.
 */
export const sandboxCheckoutReturnOperation = defineOperation({
  method: 'post',
  path: '/sandbox/v1/checkout/return',
  onlyWhere: 'sandboxEnabled',
  envelope: 'success',
  auth: anyTester,
  body: { contentType: 'application/x-www-form-urlencoded', fields: 'flat', schema: sandboxReturnFormSchema },
  query: sandboxReturnQuerySchema,
  reference: sandboxCheckoutReturnReference,
  async handle({ query, parsed }, deps) {
    // The fields as posted, in order: what the merchant's code verifies the checksum over.
    const pairs = parsed as FormFields;
    const merchant = await deps.useCases.shared.findMerchant(query.merchantIdentifier);
    if (!merchant) throw new ApiError('merchantNotFound');
    const kind = await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
      verifiedReturnKind(keys, pairs),
    );
    const rows = pairs.map(([k, v]) => html`<tr><th scope="row">${k}</th><td id="f-${k}">${v}</td></tr>`);
    return new HtmlPage(
      200,
      kind === null && pairs.length === 0
        ? messagePage('Nothing returned', 'The return carried no fields.')
        : layout(
            'Returned to the merchant',
            html`<section class="card" role="status"><h1>Returned to ${merchant.name}</h1>
  <p class="result ${kind ? 'ok' : 'bad'}" id="verified">${kind ? `checksum verified (${kind} return)` : 'checksum does NOT verify'}</p>
  <table>${rows}</table></section>`,
          ),
    );
  },
});
