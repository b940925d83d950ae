import type { AudienceModule } from '../audience';
import { checkoutPageRoutes } from './checkout-page';
import { paymentLinkPageRoutes } from './payment-link-page';

/**
 * The payer's pages: the hosted checkout and the payment link page (HTML for people). The checkout
 * page's forms are documented with the checkout entries that lead to them (merchant/checkout-openapi.ts).
 */
export const payerModule: AudienceModule = {
  name: 'payer',
  routers: (deps) => [paymentLinkPageRoutes(deps), checkoutPageRoutes(deps)],
  undocumented: ['/pl/:token', '/pl/:token/pay'],
};
