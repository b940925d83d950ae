import { defineOperation } from '../operation';
import type { CheckoutData } from '../schemas/checkout';
import { checkoutDataSchema } from '../schemas/checkout';
import { beginCheckout, checkoutParts } from './checkout-operation';
import { signedCheckoutData } from './checkout-schemes';

/**
 * `POST /transactU?v=8`: the custom checkout, form fields `data` (JSON text) and `checksum` over it.
 * Zaakpay serves its checkout and its mandates at one address, by version: v=12 and 13 are the
 * mandate operation's (mandates.ts), and a version neither serves is refused (2009, in the
 * mandate envelope). Its entry in the API reference is the mandate operation's.
 */
export const transactUCheckoutOperation = defineOperation({
  method: 'post',
  path: '/transactU',
  selectedBy: { parameter: 'v', values: ['8'], otherwise: { error: 'unsupportedVersion', envelope: 'mandate' } },
  ...checkoutParts<CheckoutData>(checkoutDataSchema),
  auth: signedCheckoutData,
  reference: 'shared',
  handle: ({ caller, body, ip, accept }, deps) => beginCheckout(deps, 'transactU', { caller, body, ip, accept }),
});
