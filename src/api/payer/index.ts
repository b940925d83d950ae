import type { AudienceModule } from '../audience';
import { checkoutPageOperations } from './checkout-page';
import { checkoutPagePaths } from './checkout-page-openapi';
import { paymentLinkPageOperations } from './payment-link-page';

/**
 * The payer's pages: the hosted checkout (documented, as the checkout entries lead to it) and the
 * payment link page (HTML for people only).
 */
export const payerModule: AudienceModule = {
  name: 'payer',
  operations: [...paymentLinkPageOperations, ...checkoutPageOperations],
  paths: checkoutPagePaths,
  undocumented: ['/pl/:token', '/pl/:token/pay'],
};
