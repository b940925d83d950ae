import Router from '@koa/router';
import { ApiError } from '../../domain/api-errors';
import type { ApiDeps } from '../deps';
import { TRANSACT_U_VERSIONS } from '../schemas/mandates';
import { transactUCheckout } from './checkout-entries';
import { mandateRequest } from './mandates';

/** `POST /transactU?v=...`: Zaakpay serves its checkout and its mandates at one address, by version. */
export function transactURoutes(deps: ApiDeps): Router {
  const router = new Router();
  const checkout = transactUCheckout(deps);
  const mandate = mandateRequest(deps);
  router.post('/transactU', async (ctx) => {
    const version = ctx.query.v;
    if (version === '8') return checkout(ctx);
    if (typeof version !== 'string' || !(TRANSACT_U_VERSIONS as readonly string[]).includes(version)) {
      throw new ApiError('unsupportedVersion', `v is ${JSON.stringify(version ?? null)}`);
    }
    return mandate(ctx);
  });
  return router;
}
