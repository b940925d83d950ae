import type { PayerUseCases } from '../../api/payer/use-cases';
import { CheckoutRepository } from '../../store/checkout-repository';
import { PaymentLinkRepository } from '../../store/payment-link-repository';
import { awaitBankRedirect, bankRedirectOf, hostedCheckout, hostedPaymentLink } from '../../usecases/hosted-order';
import { payLink } from '../../usecases/pay-link';
import { cancelWaitingOrder, payWaitingOrder, paymentStage } from '../../usecases/pay-waiting-order';
import { checkoutIntent } from '../../usecases/start-checkout';
import { startPaymentDeps } from '../../usecases/start-payment';
import type { Runtime } from '../runtime';

/** The payer audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildPayerUseCases(rt: Runtime): PayerUseCases {
  const { config } = rt;
  const checkouts = new CheckoutRepository(rt.store.db, config.secrets.masterKey);
  const paymentLinks = new PaymentLinkRepository(rt.store.db, config.secrets.masterKey);
  const orders = { transactions: rt.transactions, merchants: rt.merchants };
  const payment = startPaymentDeps(rt);
  return {
    hostedCheckout: (token) => hostedCheckout({ ...orders, checkouts }, token),
    hostedPaymentLink: (token) => hostedPaymentLink({ ...orders, paymentLinks }, token),
    payCheckout: (checkout, payer) => payWaitingOrder(payment, checkout, 'CHECKOUT', payer),
    cancelCheckout: (checkout) => cancelWaitingOrder(payment, checkout, 'CHECKOUT'),
    payLink: (link, payer) => payLink(payment, link, payer),
    awaitsPayer: async (order) => (await paymentStage(rt, order)) === 'awaiting-payer',
    bankRedirectOf: (order) => bankRedirectOf(rt, order),
    awaitBankRedirect: (order) => awaitBankRedirect(rt, order),
    checkoutIntent: (merchant, t) => checkoutIntent(config, merchant, t),
    markReturnOffered: (checkoutId, at) => checkouts.markReturnOffered(checkoutId, at),
  };
}
