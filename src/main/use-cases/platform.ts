import type { PlatformUseCases } from '../../api/platform/use-cases';
import { CheckoutRepository } from '../../store/checkout-repository';
import { pingStore } from '../../store/mongo';
import { ReconciliationRepository } from '../../store/reconciliation-repository';
import { handleBankCallback } from '../../usecases/bank-callback';
import { findCheckoutOfOrder } from '../../usecases/checkout-of-order';
import { readiness } from '../../usecases/readiness';
import type { Runtime } from '../runtime';

/** The platform audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildPlatformUseCases(rt: Runtime): PlatformUseCases {
  const checkouts = new CheckoutRepository(rt.store.db, rt.config.secrets.masterKey);
  const callbackDeps = {
    ...rt,
    reconciliations: new ReconciliationRepository(rt.store.db),
    taskQueue: rt.config.temporal.taskQueue,
  };
  return {
    readiness: () => readiness({ pingStore: () => pingStore(rt.store.db), temporal: rt.temporal }),
    handleBankCallback: (callback) => handleBankCallback(callbackDeps, callback),
    findTransaction: (order) => rt.transactions.findByOrder(order),
    checkoutOfOrder: (order) => findCheckoutOfOrder({ checkouts, config: rt.config, now: rt.now }, order),
  };
}
