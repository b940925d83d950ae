import type { AudienceModule } from '../audience';
import { dashboardAuditOperation } from './dashboard-audit';
import { authOperations } from './dashboard-auth';
import { developerOperations } from './dashboard-developers';
import { downloadOperations } from './dashboard-downloads';
import { dashboardAccountOperation, dashboardNotFound, dashboardOverviewOperation } from './dashboard-home';
import { linkOperations } from './dashboard-links';
import { dashboardMandatesOperation } from './dashboard-mandates';
import { settlementOperations } from './dashboard-settlements';
import { transactionOperations } from './dashboard-transactions';
import { userOperations } from './dashboard-users';
import { webhookOperations } from './dashboard-webhooks';

/** The merchant dashboard (/dashboard): HTML pages for the merchant's people, behind a session. */
export const dashboardModule: AudienceModule = {
  name: 'dashboard',
  middleware: () => [dashboardNotFound()],
  operations: [
    ...authOperations,
    dashboardOverviewOperation,
    dashboardAccountOperation,
    ...developerOperations,
    dashboardMandatesOperation,
    dashboardAuditOperation,
    ...transactionOperations,
    ...linkOperations,
    ...settlementOperations,
    ...webhookOperations,
    ...userOperations,
    ...downloadOperations,
  ],
  undocumented: ['/dashboard*'],
};
