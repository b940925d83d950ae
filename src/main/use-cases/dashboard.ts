import type { DashboardUseCases } from '../../api/dashboard/use-cases';
import type { Runtime } from '../runtime';

/** The dashboard audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildDashboardUseCases(_rt: Runtime): DashboardUseCases {
  return {};
}
