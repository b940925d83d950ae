import type { AudienceModule } from '../audience';
import { opsAuditRoutes } from './audit';
import { auditPaths } from './audit-openapi';
import { chargebackRoutes } from './chargebacks';
import { codecRoutes } from './codec';
import { keyPaths } from './keys-openapi';
import { opsRoutes } from './ops';
import { opsKeyRoutes } from './ops-keys';
import { opsPaths } from './ops-openapi';
import { provisioningPaths } from './provisioning-openapi';
import { reconciliationRoutes } from './reconciliations';
import { operatorTokenRoutes } from './operator-tokens';
import { operatorTokenPaths } from './operator-tokens-openapi';
import { opsSettlementAccountRoutes } from './settlement-account';
import { opsSettlementRoutes } from './settlements';
import { settlementOpsPaths } from './settlements-openapi';
import { webhookRoutes } from './webhooks';
import { webhookPaths } from './webhooks-openapi';

/** The operator API (/ops/v1, the operator's bearer token): merchants, keys, webhooks, chargebacks, reconciliations, the codec. */
export const opsModule: AudienceModule = {
  name: 'ops',
  // The public listener serves none of it: operators reach the ops listener over the private network.
  routers: (deps, api) =>
    api.listener === 'public'
      ? []
      : [
          opsRoutes(deps),
          opsKeyRoutes(deps),
          codecRoutes(deps),
          chargebackRoutes(deps),
          reconciliationRoutes(deps),
          webhookRoutes(deps),
          opsSettlementRoutes(deps),
          opsSettlementAccountRoutes(deps),
          opsAuditRoutes(deps),
          operatorTokenRoutes(deps),
        ],
  paths: () => ({
    ...opsPaths(),
    ...keyPaths(),
    ...webhookPaths(),
    ...provisioningPaths(),
    ...settlementOpsPaths(),
    ...auditPaths(),
    ...operatorTokenPaths(),
  }),
};
