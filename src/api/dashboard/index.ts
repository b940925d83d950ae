import type { AudienceModule } from '../audience';
import { dashboardAuditRoutes } from './dashboard-audit';
import { dashboardAuthRoutes } from './dashboard-auth';
import { dashboardDeveloperRoutes } from './dashboard-developers';
import { dashboardDownloadRoutes } from './dashboard-downloads';
import { dashboardHomeRoutes, dashboardNotFound } from './dashboard-home';
import { dashboardLinkRoutes } from './dashboard-links';
import { dashboardMandateRoutes } from './dashboard-mandates';
import { dashboardSettlementRoutes } from './dashboard-settlements';
import { dashboardTransactionRoutes } from './dashboard-transactions';
import { dashboardUserRoutes } from './dashboard-users';
import { dashboardWebhookRoutes } from './dashboard-webhooks';

/** The merchant dashboard (/dashboard): HTML pages for the merchant's people, behind a session. */
export const dashboardModule: AudienceModule = {
  name: 'dashboard',
  middleware: () => [dashboardNotFound()],
  routers: (deps) => [
    dashboardAuthRoutes(deps),
    dashboardHomeRoutes(deps),
    dashboardUserRoutes(deps),
    dashboardDeveloperRoutes(deps),
    dashboardWebhookRoutes(deps),
    dashboardTransactionRoutes(deps),
    dashboardDownloadRoutes(deps),
    dashboardLinkRoutes(deps),
    dashboardMandateRoutes(deps),
    dashboardSettlementRoutes(deps),
    dashboardAuditRoutes(deps),
  ],
  undocumented: ['/dashboard*'],
};
