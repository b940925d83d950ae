import Koa from 'koa';
import type { ApiDeps } from './deps';
import { apiDocsRoutes } from './routes/api-docs';
import { authFailureLimit } from './middleware/abuse-limits';
import { errorEnvelope } from './middleware/errors';
import { followTestServerClock } from './middleware/test-server-clock';
import { observe } from './middleware/observe';
import { bankRoutes } from './routes/bank';
import { chargebackRoutes } from './routes/chargebacks';
import { checkTxnRoutes } from './routes/check-txn';
import { legacyXmlRoutes } from './routes/legacy-xml';
import { dashboardAuthRoutes } from './routes/dashboard-auth';
import { dashboardHomeRoutes, dashboardNotFound } from './routes/dashboard-home';
import { dashboardUserRoutes } from './routes/dashboard-users';
import { dashboardDeveloperRoutes } from './routes/dashboard-developers';
import { dashboardWebhookRoutes } from './routes/dashboard-webhooks';
import { dashboardTransactionRoutes } from './routes/dashboard-transactions';
import { dashboardDownloadRoutes } from './routes/dashboard-downloads';
import { dashboardLinkRoutes } from './routes/dashboard-links';
import { dashboardMandateRoutes } from './routes/dashboard-mandates';
import { dashboardSettlementRoutes } from './routes/dashboard-settlements';
import { checkoutEntryRoutes } from './routes/checkout-entries';
import { checkoutPageRoutes } from './routes/checkout-page';
import { codecRoutes } from './routes/codec';
import { healthRoutes } from './routes/health';
import { ledgerRoutes } from './routes/ledger';
import { openApiRoutes } from './routes/openapi';
import { opsRoutes } from './routes/ops';
import { opsKeyRoutes } from './routes/ops-keys';
import { opsSettlementAccountRoutes } from './routes/ops-settlement-account';
import { settlementReportRoutes } from './routes/settlement-report';
import { splitPaymentRoutes } from './routes/split-payments';
import { opsSettlementRoutes } from './routes/ops-settlements';
import { paymentLinkPageRoutes } from './routes/payment-link-page';
import { paymentLinkRoutes } from './routes/payment-links';
import { qrRoutes } from './routes/qr';
import { reconciliationRoutes } from './routes/reconciliations';
import { refundRoutes } from './routes/refunds';
import { sandboxRoutes } from './routes/sandbox';
import { sandboxCheckoutReturnRoutes } from './routes/sandbox-checkout-return';
import { sandboxMandateRoutes } from './routes/sandbox-mandates';
import { sandboxQrRoutes } from './routes/sandbox-qr';
import { sandboxTimeRoutes } from './routes/sandbox-time';
import { statusRoutes } from './routes/status';
import { transactURoutes } from './routes/transact-u';
import { webhookRoutes } from './routes/webhooks';

/** The HTTP API as a Koa app, without listening: main/api.ts and the tests both serve it. */
export function createApp(deps: ApiDeps): Koa {
  // Behind a TLS proxy, ctx.protocol, ctx.host and ctx.ip come from its X-Forwarded-* headers; only
  // the hop nearest to us counts in X-Forwarded-For (a client can write whatever it likes before it).
  const app = new Koa({ proxy: deps.config.TRUST_PROXY, maxIpsCount: 1 });
  app.use(observe(deps.logger, deps.metrics));
  app.use(errorEnvelope(deps.logger));
  app.use(
    authFailureLimit(deps.store.client, deps.config.MONGODB_DB, {
      perAddress: deps.config.AUTH_FAILURES_PER_ADDRESS_PER_MINUTE,
      perMerchant: deps.config.AUTH_FAILURES_PER_MERCHANT_PER_MINUTE,
    }),
  );
  if (deps.timeTravel) app.use(followTestServerClock(deps.timeTravel));
  app.use(dashboardNotFound());

  const routers = [
    healthRoutes(deps),
    openApiRoutes(deps),
    apiDocsRoutes(deps),
    statusRoutes(deps),
    ledgerRoutes(deps),
    paymentLinkRoutes(deps),
    paymentLinkPageRoutes(deps),
    qrRoutes(deps),
    refundRoutes(deps),
    transactURoutes(deps),
    checkoutEntryRoutes(deps),
    checkoutPageRoutes(deps),
    checkTxnRoutes(deps),
    legacyXmlRoutes(deps),
    opsRoutes(deps),
    opsKeyRoutes(deps),
    opsSettlementAccountRoutes(deps),
    settlementReportRoutes(deps),
    splitPaymentRoutes(deps),
    opsSettlementRoutes(deps),
    codecRoutes(deps),
    chargebackRoutes(deps),
    reconciliationRoutes(deps),
    webhookRoutes(deps),
    bankRoutes(deps),
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
  ];
  if (deps.config.SANDBOX_ENABLED) {
    routers.push(sandboxRoutes(deps), sandboxQrRoutes(deps), sandboxMandateRoutes(deps), sandboxCheckoutReturnRoutes(deps));
  }
  if (deps.timeTravel) routers.push(sandboxTimeRoutes(deps, deps.timeTravel));
  for (const router of routers) {
    app.use(router.routes());
    // Sets 405 (or 501) with the Allow header; errorEnvelope then writes the envelope around it.
    app.use(router.allowedMethods());
  }
  // Koa's default error handler would answer a stray error in plain text; errorEnvelope catches
  // everything from the routes, so this only logs what escapes the chain (e.g. a socket error).
  app.on('error', (err) => deps.logger.warn({ err }, 'koa error outside a request'));
  return app;
}
