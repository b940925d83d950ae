import type { Client } from '@temporalio/client';
import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { TimeTravel } from '../temporal/time-travel';
import type { RateLimit } from './middleware/rate-limit';
import type { Logger } from '../logger';
import type { MandateRepository } from '../store/mandate-repository';
import type { MerchantRepository } from '../store/merchant-repository';
import type { Store } from '../store/mongo';
import type { CheckoutRepository } from '../store/checkout-repository';
import type { PaymentLinkRepository } from '../store/payment-link-repository';
import type { ReconciliationRepository } from '../store/reconciliation-repository';
import type { TransactionRepository } from '../store/transaction-repository';
import type { WebhookEndpointRepository } from '../store/webhook-endpoint-repository';
import type { WebhookRepository } from '../store/webhook-repository';
import type { DashboardInvitationRepository } from '../store/dashboard-invitation-repository';
import type { DashboardSessionRepository } from '../store/dashboard-session-repository';
import type { DashboardUserRepository } from '../store/dashboard-user-repository';
import type { UseCases } from './use-cases';

/** Everything the HTTP API needs, passed in so tests build the same app against their servers. */
export interface ApiDeps {
  config: Config;
  logger: Logger;
  store: Store;
  merchants: MerchantRepository;
  transactions: TransactionRepository;
  mandates: MandateRepository;
  paymentLinks: PaymentLinkRepository;
  checkouts: CheckoutRepository;
  dashboardUsers: DashboardUserRepository;
  dashboardSessions: DashboardSessionRepository;
  dashboardInvitations: DashboardInvitationRepository;
  reconciliations: ReconciliationRepository;
  webhooks: WebhookRepository;
  webhookEndpoints: WebhookEndpointRepository;
  temporal: Client;
  metrics: Registry;
  now: () => Date;
  rateLimit: RateLimit;
  /** What routes ask of the application; the repositories and clients above leave as routes move to these. */
  useCases: UseCases;
  /** Time-skipping mode only: `now` is the test server's clock, and testers skip time through it. */
  timeTravel?: TimeTravel;
}
