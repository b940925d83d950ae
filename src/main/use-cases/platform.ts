import type { PlatformUseCases } from '../../api/platform/use-cases';
import type { Runtime } from '../runtime';

/** The platform audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildPlatformUseCases(_rt: Runtime): PlatformUseCases {
  return {};
}
