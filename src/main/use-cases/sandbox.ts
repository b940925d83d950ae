import type { SandboxUseCases } from '../../api/sandbox/use-cases';
import { CheckoutRepository } from '../../store/checkout-repository';
import { findCheckoutOfOrder } from '../../usecases/checkout-of-order';
import { payQr } from '../../usecases/pay-qr';
import { readOrder } from '../../usecases/read-order';
import { revokeMandate } from '../../usecases/revoke-mandate';
import { startPayment, startPaymentDeps } from '../../usecases/start-payment';
import type { Runtime } from '../runtime';

/** The sandbox audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildSandboxUseCases(rt: Runtime): SandboxUseCases {
  const checkouts = new CheckoutRepository(rt.store.db, rt.config.secrets.masterKey);
  const payment = startPaymentDeps(rt);
  const { timeTravel } = rt;
  return {
    startPayment: (request) => startPayment(payment, request),
    readOrder: (order) => readOrder(rt, order),
    checkoutOfOrder: (order) => findCheckoutOfOrder({ checkouts, config: rt.config, now: rt.now }, order),
    payQr: (order, payer, o) => payQr(rt, order, payer, o),
    revokeMandate: (order) => revokeMandate(rt, order),
    // Only in time-skipping mode: the operations that use them are mounted there only.
    ...(timeTravel ? { now: () => timeTravel.clock.now(), skip: (target) => timeTravel.skip(target) } : {}),
  };
}
