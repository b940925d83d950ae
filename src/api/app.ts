import Koa from 'koa';
import type { ApiDeps } from './deps';
import { apiDocsRoutes } from './platform/api-docs';
import { authFailureLimit } from './middleware/abuse-limits';
import { errorEnvelope } from './middleware/errors';
import { followTestServerClock } from './middleware/test-server-clock';
import { observe } from './middleware/observe';
import { bankRoutes } from './platform/bank';
import { chargebackRoutes } from './ops/chargebacks';
import { checkTxnRoutes } from './merchant/check-txn';
import { legacyXmlRoutes } from './merchant/legacy-xml';
import { dashboardAuthRoutes } from './dashboard/dashboard-auth';
import { dashboardHomeRoutes, dashboardNotFound } from './dashboard/dashboard-home';
import { dashboardUserRoutes } from './dashboard/dashboard-users';
import { dashboardDeveloperRoutes } from './dashboard/dashboard-developers';
import { dashboardWebhookRoutes } from './dashboard/dashboard-webhooks';
import { dashboardTransactionRoutes } from './dashboard/dashboard-transactions';
import { dashboardDownloadRoutes } from './dashboard/dashboard-downloads';
import { dashboardLinkRoutes } from './dashboard/dashboard-links';
import { dashboardMandateRoutes } from './dashboard/dashboard-mandates';
import { checkoutEntryRoutes } from './merchant/checkout-entries';
import { checkoutPageRoutes } from './payer/checkout-page';
import { codecRoutes } from './ops/codec';
import { healthRoutes } from './platform/health';
import { ledgerRoutes } from './merchant/ledger';
import { openApiRoutes } from './platform/openapi';
import { opsRoutes } from './ops/ops';
import { opsKeyRoutes } from './ops/ops-keys';
import { paymentLinkPageRoutes } from './payer/payment-link-page';
import { paymentLinkRoutes } from './merchant/payment-links';
import { qrRoutes } from './merchant/qr';
import { reconciliationRoutes } from './ops/reconciliations';
import { refundRoutes } from './merchant/refunds';
import { sandboxRoutes } from './sandbox/sandbox';
import { sandboxCheckoutReturnRoutes } from './sandbox/sandbox-checkout-return';
import { sandboxMandateRoutes } from './sandbox/sandbox-mandates';
import { sandboxQrRoutes } from './sandbox/sandbox-qr';
import { sandboxTimeRoutes } from './sandbox/sandbox-time';
import { statusRoutes } from './merchant/status';
import { transactURoutes } from './merchant/transact-u';
import { webhookRoutes } from './ops/webhooks';

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
