import type { PaymentInstrument } from '../domain/instrument';
import type { PaymentLink } from '../domain/payment-link';
import { payWaitingOrder } from './pay-waiting-order';
import type { StartPaymentDeps } from './start-payment';

/** A payer pays a link on its page (see payWaitingOrder: one payer only, the workflow decides). */
export function payLink(deps: StartPaymentDeps, link: PaymentLink, payer: PaymentInstrument): Promise<'accepted' | 'notOpen'> {
  return payWaitingOrder(deps, link, 'PAYMENT_LINK', payer);
}
