import type { MerchantUseCases } from '../../api/merchant/use-cases';
import type { Runtime } from '../runtime';

/** The merchant audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildMerchantUseCases(_rt: Runtime): MerchantUseCases {
  return {};
}
