import type { CheckoutEntry } from '../../domain/checkout-return';
import { defineOperation } from '../operation';
import { checkoutFieldsSchema, type CheckoutFields } from '../schemas/checkout';
import { expressReference, legacyTransactReference } from './checkout-openapi';
import { beginCheckout, checkoutParts, type CheckoutBody } from './checkout-operation';
import { expressChecksum, legacyChecksum } from './checkout-schemes';

/**
 * Zaakpay's checkout entries besides `/transactU?v=8` (transact-u.ts), so merchants' code (and
 * Zaakpay's public kits) take payments by changing only the host (design.md, Checkout):
 *  - `POST|GET /api/paymentTransact/V8` and `/V7`: flat fields, or the custom checkout's `data` + `checksum`;
 *  - `POST /transact` (also `?v=2`, `?v=3`): flat fields, the legacy quoted checksum.
 * Each authenticates the merchant by its scheme (checkout-schemes.ts) before anything is validated
 * or stored, and goes on as every checkout entry does (checkout-operation.ts).
 */

/** The express checkout; some apps send its fields as a query string (GET). */
function expressOperation(version: 'V8' | 'V7', method: 'post' | 'get') {
  return defineOperation({
    method,
    path: `/api/paymentTransact/${version}`,
    // The flat fields by default; the scheme says when `data` was signed instead.
    ...checkoutParts<CheckoutBody>(checkoutFieldsSchema),
    auth: expressChecksum,
    reference: expressReference(version, method),
    handle: ({ caller, body, ip, accept }, deps) => beginCheckout(deps, version, { caller, body, ip, accept }),
  });
}

export const expressCheckoutOperations = (['V8', 'V7'] as const).flatMap((version) => [
  expressOperation(version, 'post'),
  expressOperation(version, 'get'),
]);

/** `POST /transact`: the legacy checkout, `?v=2` WooCommerce 2.0's form, `?v=3` the same as none but for its return. */
export const legacyCheckoutOperation = defineOperation({
  method: 'post',
  path: '/transact',
  ...checkoutParts<CheckoutFields>(checkoutFieldsSchema),
  auth: legacyChecksum,
  reference: legacyTransactReference,
  handle({ caller, body, ip, accept, query }, deps) {
    const entry: CheckoutEntry = query.v === '2' ? 'transactV2' : query.v === '3' ? 'transactV3' : 'transact';
    return beginCheckout(deps, entry, { caller, body, ip, accept });
  },
});
