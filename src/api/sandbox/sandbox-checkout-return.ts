import Router from '@koa/router';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { ApiError } from '../../domain/api-errors';
import { verifiedReturnKind } from '../../domain/checkout-return';
import type { ApiDeps } from '../deps';
import { sendPage } from '../hosted-page';
import { readRawBody, validate } from '../middleware/body';
import { parseFormPairs } from '../middleware/form-body';
import { layout, messagePage } from '../pages/layout';
import { sandboxReturnFormSchema, sandboxReturnQuerySchema } from '../schemas/sandbox-checkout';
import { html } from '../pages/html';

/**
 * `POST /sandbox/v1/checkout/return?merchantIdentifier=...`: a merchant's returnUrl for trying the
 * hosted checkout without a merchant site (`npm start` prints a checkout that returns here). Shows
 * what the return posted, in order, and whether its checksum verifies with the merchant's key, as
 * the merchant's own code would check it. Sandbox only.
 */
export function sandboxCheckoutReturnRoutes(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/sandbox/v1/checkout/return', async (ctx) => {
    const { merchantIdentifier } = validate(sandboxReturnQuerySchema, ctx.query);
    const pairs = parseFormPairs(await readRawBody(ctx, 'application/x-www-form-urlencoded', deps.config.MAX_BODY_BYTES));
    validate(sandboxReturnFormSchema, Object.fromEntries(pairs));
    const merchant = await deps.merchants.findById(merchantIdentifier);
    if (!merchant) throw new ApiError('merchantNotFound');
    const kind = await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
      verifiedReturnKind(keys, pairs),
    );
    const rows = pairs.map(([k, v]) => html`<tr><th scope="row">${k}</th><td id="f-${k}">${v}</td></tr>`);
    sendPage(
      ctx,
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
  });
  return router;
}
