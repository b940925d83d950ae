import type { DashboardUseCases } from './dashboard/use-cases';
import type { MerchantUseCases } from './merchant/use-cases';
import type { OpsUseCases } from './ops/use-cases';
import type { PayerUseCases } from './payer/use-cases';
import type { PlatformUseCases } from './platform/use-cases';
import type { SandboxUseCases } from './sandbox/use-cases';
import type { SharedUseCases } from './shared-use-cases';

/**
 * Everything the HTTP API may ask of the application, one part per audience, built once at start-up
 * (src/main/use-cases/). A route holds use cases, never a repository, the database handle or the
 * Temporal client: the interfaces name domain types only.
 */
export interface UseCases {
  merchant: MerchantUseCases;
  ops: OpsUseCases;
  dashboard: DashboardUseCases;
  payer: PayerUseCases;
  sandbox: SandboxUseCases;
  platform: PlatformUseCases;
  shared: SharedUseCases;
}
