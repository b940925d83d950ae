import type { PayerUseCases } from '../../api/payer/use-cases';
import type { Runtime } from '../runtime';

/** The payer audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildPayerUseCases(_rt: Runtime): PayerUseCases {
  return {};
}
