import Router from '@koa/router';
import { ApiError } from '../../domain/api-errors';
import type { ApiDeps } from '../deps';
import { transactUCheckout } from './checkout-entries';

/**
 * `POST /transactU?v=...`: Zaakpay serves its checkout and its mandates at one address, by version.
 * v=12 and 13 are the mandate operation's (mandates.ts, selected by its query); this route serves
 * v=8, the custom checkout, and refuses any other version.
 */
export function transactURoutes(deps: ApiDeps): Router {
  const router = new Router();
  const checkout = transactUCheckout(deps);
  router.post('/transactU', async (ctx) => {
    const version = ctx.query.v;
    if (version === '8') return checkout(ctx);
    throw new ApiError('unsupportedVersion', `v is ${JSON.stringify(version ?? null)}`);
  });
  return router;
}
