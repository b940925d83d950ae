import type { SandboxUseCases } from '../../api/sandbox/use-cases';
import type { Runtime } from '../runtime';

/** The sandbox audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildSandboxUseCases(_rt: Runtime): SandboxUseCases {
  return {};
}
