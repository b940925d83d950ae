import type {
  DashboardKeyUseCases,
  DashboardPaymentUseCases,
  DashboardSettlementUseCases,
  DashboardStaffUseCases,
  DashboardUseCases,
  DashboardWebhookUseCases,
} from '../../api/dashboard/use-cases';
import { passwordAttemptLimits } from '../../api/dashboard/sign-in-limits';
import { sharedLimiter } from '../../store/rate-limit-counter';
import { AuditRepository } from '../../store/audit-repository';
import { DailyFiguresRepository } from '../../store/daily-figures-repository';
import { DashboardInvitationRepository } from '../../store/dashboard-invitation-repository';
import { DashboardSessionRepository } from '../../store/dashboard-session-repository';
import { DashboardUserRepository } from '../../store/dashboard-user-repository';
import { PaymentLinkRepository } from '../../store/payment-link-repository';
import { RefundRequestRepository } from '../../store/refund-request-repository';
import { SettlementReadRepository } from '../../store/settlement-read-repository';
import { WebhookEndpointRepository } from '../../store/webhook-endpoint-repository';
import { WebhookRepository } from '../../store/webhook-repository';
import { mandateDebitWorkflowId, paymentWorkflowId } from '../../temporal/workflow-ids';
import { auditTrail, type AuditTrail } from '../../usecases/audit-trail';
import { refusedWebhookUrl, webhookAddressPolicy } from '../../usecases/check-webhook-url';
import { createPaymentLinks, linkUrl } from '../../usecases/create-payment-links';
import { acceptInvitation, createInvitation } from '../../usecases/dashboard-invitations';
import { signIn } from '../../usecases/dashboard-sign-in';
import * as keys from '../../usecases/merchant-keys';
import { overviewFigures } from '../../usecases/overview-figures';
import { settlementReads } from '../../usecases/read-settlements';
import { replayDelivery } from '../../usecases/replay-webhook';
import { sendTestWebhook } from '../../usecases/send-test-webhook';
import { settlementAccountUseCases } from '../../usecases/settlement-account';
import { startPaymentDeps } from '../../usecases/start-payment';
import { startRefund, startRefundDeps } from '../../usecases/start-refund';
import { updateMerchant } from '../../usecases/update-merchant';
import * as deliveries from '../../usecases/webhook-deliveries';
import type { Runtime } from '../runtime';
import { settlementAccountDeps } from './settlement-deps';

/** The dashboard audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildDashboardUseCases(rt: Runtime): DashboardUseCases {
  const webhooks = new WebhookRepository(rt.store.db, rt.config.secrets.masterKey);
  const webhookDeps = {
    merchants: rt.merchants,
    webhooks,
    webhookEndpoints: new WebhookEndpointRepository(rt.store.db),
    now: rt.now,
  };
  const trail = auditTrail(new AuditRepository(rt.store.db), rt.now);
  const dailyFigures = new DailyFiguresRepository(rt.store.db);
  return {
    findMerchant: (merchantIdentifier) => rt.merchants.findById(merchantIdentifier),
    recordAudit: (action, actor, o) => trail.record(action, actor, o),
    listAudit: (o) => trail.list(o),
    overviewFigures: (merchantIdentifier, at, days) => overviewFigures({ dailyFigures }, merchantIdentifier, at, days),
    webhookTrouble: (merchantIdentifier, period, limit) =>
      deliveries.webhookTrouble(webhookDeps, merchantIdentifier, period, limit),
    ...staffUseCases(rt),
    ...keyUseCases(rt),
    ...webhookUseCases(rt, webhooks, webhookDeps),
    ...paymentUseCases(rt, webhookDeps),
    ...settlementUseCases(rt, trail),
  };
}

/** Sessions, sign-in (with the failed-password limits), invitations and users. */
function staffUseCases(rt: Runtime): DashboardStaffUseCases {
  const { config, now } = rt;
  const users = new DashboardUserRepository(rt.store.db);
  const sessions = new DashboardSessionRepository(rt.store.db);
  const invitations = new DashboardInvitationRepository(rt.store.db);
  const staff = {
    merchants: rt.merchants,
    dashboardUsers: users,
    dashboardSessions: sessions,
    dashboardInvitations: invitations,
    now,
  };
  const attempts = passwordAttemptLimits((o) => sharedLimiter(rt.store.client, config.store.database, o), config.dashboard);
  return {
    findSession: (token) => sessions.find(token, now()),
    findUser: (email) => users.find(email),
    signIn: (email, password) =>
      signIn(
        { ...staff, sessionHours: config.dashboard.sessionHours, passwordCost: config.dashboard.passwordCost },
        email,
        password,
      ),
    endSession: (token) => sessions.remove(token),
    endSessionsOf: (email) => sessions.removeAllOf(email),
    takePasswordAttempt: (email, address) => attempts.take(email, address),
    findInvitation: (token) => invitations.find(token),
    acceptInvitation: (token, password) =>
      acceptInvitation({ ...staff, passwordCost: config.dashboard.passwordCost }, token, password),
    inviteUser: (merchantIdentifier, invite) =>
      createInvitation(
        { ...staff, publicBaseUrl: config.http.publicBaseUrl, invitationHours: config.dashboard.invitationHours },
        merchantIdentifier,
        invite,
      ),
    listUsers: (merchantIdentifier) => users.listOfMerchant(merchantIdentifier),
    findUserOfMerchant: (merchantIdentifier, email) => users.findOfMerchant(merchantIdentifier, email),
    setRole: (merchantIdentifier, email, role) => users.setRole(merchantIdentifier, email, role),
    removeUser: (merchantIdentifier, email) => users.remove(merchantIdentifier, email),
  };
}

/** The ops API's and CLI's key use cases, at this process's clock and rotation overlap. */
function keyUseCases(rt: Runtime): DashboardKeyUseCases {
  const { merchants, now } = rt;
  return {
    listApiKeys: (merchantIdentifier) => keys.listApiKeys(merchants, merchantIdentifier),
    createApiKey: (merchantIdentifier, label) => keys.createApiKey(merchants, merchantIdentifier, label, now()),
    revokeApiKey: (merchantIdentifier, keyId) => keys.revokeApiKey(merchants, merchantIdentifier, keyId, now()),
    rotateSecretKey: (merchantIdentifier) =>
      keys.rotateSecretKey(merchants, merchantIdentifier, rt.config.secrets.secretKeyRotationOverlapMs, now()),
    revokePreviousSecretKey: (merchantIdentifier, acceptedUntil) =>
      keys.revokePreviousSecretKey(merchants, merchantIdentifier, acceptedUntil, now()),
    rotateEncryptionKey: (merchantIdentifier) => keys.rotateEncryptionKey(merchants, merchantIdentifier, now()),
    retireEncryptionKey: (merchantIdentifier, keyId) => keys.retireEncryptionKey(merchants, merchantIdentifier, keyId, now()),
  };
}

type WebhookDeps = Parameters<typeof deliveries.webhookOverview>[0];

function webhookUseCases(rt: Runtime, webhooks: WebhookRepository, webhookDeps: WebhookDeps): DashboardWebhookUseCases {
  const { config, merchants, now } = rt;
  const policy = webhookAddressPolicy(config);
  return {
    webhookOverview: (merchantIdentifier, logSize) => deliveries.webhookOverview(webhookDeps, merchantIdentifier, logSize),
    refusedWebhookUrl: (url) => refusedWebhookUrl(url, policy),
    updateWebhookSettings: (merchantIdentifier, settings) => updateMerchant(merchants, merchantIdentifier, settings),
    rotateWebhookSigningSecret: (merchantIdentifier) =>
      keys.rotateWebhookSigningSecret(merchants, merchantIdentifier, config.webhooks.secretRotationOverlapMs, now()),
    enableEndpoint: (merchantIdentifier) => deliveries.enableEndpoint(webhookDeps, merchantIdentifier),
    sendTestWebhook: (merchant) =>
      sendTestWebhook({ merchants, policy, timeoutMs: config.webhooks.attemptTimeoutSeconds * 1000, now }, merchant),
    findDelivery: (deliveryId) => deliveries.findDelivery(webhookDeps, deliveryId),
    replayDelivery: (deliveryId) =>
      replayDelivery({ webhooks, temporal: rt.temporal, taskQueue: config.temporal.taskQueue }, deliveryId),
  };
}

/** Transactions, refunds, payment links and mandates. */
function paymentUseCases(rt: Runtime, webhookDeps: WebhookDeps): DashboardPaymentUseCases {
  const { config, transactions } = rt;
  const paymentLinks = new PaymentLinkRepository(rt.store.db, config.secrets.masterKey);
  const refunds = startRefundDeps({ ...rt, refundRequests: new RefundRequestRepository(rt.store.db) });
  const linkDeps = { ...startPaymentDeps(rt), paymentLinks, config, logger: rt.logger };
  return {
    findOrder: (merchantIdentifier, orderId) => transactions.findByOrder({ merchantIdentifier, orderId }),
    findByTxnId: (merchantIdentifier, txnId) => transactions.findByTxnIdOfMerchant(merchantIdentifier, txnId),
    findOrders: (merchantIdentifier, orderIds) => transactions.findByOrderIds(merchantIdentifier, orderIds),
    searchTransactions: (q) => transactions.searchPage(q).toArray(),
    ledgerCursor: (q) => transactions.ledgerPage({ ...q, includeDelayedSuccess: true, skip: 0, limit: ALL_ROWS }),
    bulkCursor: (q) => transactions.bulkPage({ ...q, skip: 0, limit: ALL_ROWS }),
    startRefund: (r) => startRefund(refunds, r),
    orderRealtimeDelivery: (order) => deliveries.orderRealtimeDelivery(webhookDeps, order),
    workflowIdOf: (t) =>
      t.instrument.kind === 'UPI_MANDATE'
        ? mandateDebitWorkflowId(t.merchantIdentifier, t.orderId)
        : paymentWorkflowId(t.merchantIdentifier, t.orderId),
    paymentLinksCreatedBetween: (merchantIdentifier, from, until, limit) =>
      paymentLinks.createdBetween(merchantIdentifier, from, until, limit),
    createPaymentLinks: (merchant, batchId, entries, ip) => createPaymentLinks(linkDeps, merchant, batchId, entries, ip),
    linkUrl: (token) => linkUrl(rt, token),
    mandatesCreatedBetween: (merchantIdentifier, from, until, limit) =>
      rt.mandates.createdBetween(merchantIdentifier, from, until, limit),
  };
}

/** Settlements as merchants read them, and the owner's change of the bank account. */
function settlementUseCases(rt: Runtime, trail: AuditTrail): DashboardSettlementUseCases {
  const reads = settlementReads(new SettlementReadRepository(rt.store.db));
  const accounts = settlementAccountUseCases(settlementAccountDeps(rt, trail));
  return {
    latestSettlements: (merchantIdentifier, limit) => reads.latest(merchantIdentifier, limit),
    findSettlement: (merchantIdentifier, settlementId) => reads.find(merchantIdentifier, settlementId),
    settlementLines: (merchantIdentifier, settlementId, limit) =>
      reads.linesOf(merchantIdentifier, settlementId).limit(limit).toArray(),
    settlementLinesCursor: (merchantIdentifier, settlementId) => reads.linesOf(merchantIdentifier, settlementId),
    settlementOfSale: (merchantIdentifier, txnId) => reads.settlementOfSale(merchantIdentifier, txnId),
    maskedSettlementAccount: (merchantIdentifier) => accounts.masked(merchantIdentifier),
    pendingSettlementAccount: (merchantIdentifier) => accounts.pending(merchantIdentifier),
    changeSettlementAccount: (merchantIdentifier, account, origin) => accounts.changeByOwner(merchantIdentifier, account, origin),
  };
}

/** More rows than any period's download holds; the cursor streams them in batches of 1000. */
const ALL_ROWS = 10_000_000;
