import type { UseCases } from '../../api/use-cases';
import type { Runtime } from '../runtime';
import { buildDashboardUseCases } from './dashboard';
import { buildMerchantUseCases } from './merchant';
import { buildOpsUseCases } from './ops';
import { buildPayerUseCases } from './payer';
import { buildPlatformUseCases } from './platform';
import { buildSandboxUseCases } from './sandbox';
import { buildSharedUseCases } from './shared';

/** The API's use cases, every audience's, bound once per process. */
export function buildUseCases(rt: Runtime): UseCases {
  return {
    merchant: buildMerchantUseCases(rt),
    ops: buildOpsUseCases(rt),
    dashboard: buildDashboardUseCases(rt),
    payer: buildPayerUseCases(rt),
    sandbox: buildSandboxUseCases(rt),
    platform: buildPlatformUseCases(rt),
    shared: buildSharedUseCases(rt),
  };
}
