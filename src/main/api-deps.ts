import { Registry, collectDefaultMetrics } from 'prom-client';
import type { ApiDeps } from '../api/deps';
import { perMerchantRateLimit } from '../api/middleware/rate-limit';
import { CheckoutRepository } from '../store/checkout-repository';
import { DashboardInvitationRepository } from '../store/dashboard-invitation-repository';
import { DashboardSessionRepository } from '../store/dashboard-session-repository';
import { DashboardUserRepository } from '../store/dashboard-user-repository';
import { PaymentLinkRepository } from '../store/payment-link-repository';
import { sharedLimiter } from '../store/rate-limit-counter';
import { ReconciliationRepository } from '../store/reconciliation-repository';
import { WebhookEndpointRepository } from '../store/webhook-endpoint-repository';
import { WebhookRepository } from '../store/webhook-repository';
import { registerSettlementMetrics } from './metrics/settlement-metrics';
import { registerWebhookMetrics } from './metrics/webhook-metrics';
import type { Runtime } from './runtime';
import { buildUseCases } from './use-cases';

/** What the HTTP API gets from one process's runtime: its metrics, its limiter and its use cases. */
export function apiDeps(rt: Runtime): ApiDeps {
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  registerWebhookMetrics(metrics, new WebhookEndpointRepository(rt.store.db));
  registerSettlementMetrics(metrics, rt);
  return {
    ...rt,
    paymentLinks: new PaymentLinkRepository(rt.store.db, rt.config.MASTER_KEY),
    checkouts: new CheckoutRepository(rt.store.db, rt.config.MASTER_KEY),
    dashboardUsers: new DashboardUserRepository(rt.store.db),
    dashboardSessions: new DashboardSessionRepository(rt.store.db),
    dashboardInvitations: new DashboardInvitationRepository(rt.store.db),
    reconciliations: new ReconciliationRepository(rt.store.db),
    webhooks: new WebhookRepository(rt.store.db, rt.config.MASTER_KEY),
    webhookEndpoints: new WebhookEndpointRepository(rt.store.db),
    metrics,
    rateLimit: perMerchantRateLimit(
      (options) => sharedLimiter(rt.store.client, rt.config.MONGODB_DB, options),
      rt.config.RATE_LIMIT_PER_SECOND,
    ),
    useCases: buildUseCases(rt),
  };
}
