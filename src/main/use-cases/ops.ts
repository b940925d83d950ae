import type { OpsUseCases } from '../../api/ops/use-cases';
import type { Runtime } from '../runtime';

/** The ops audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildOpsUseCases(_rt: Runtime): OpsUseCases {
  return {};
}
