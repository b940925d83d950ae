import type {
  CodecUseCases,
  MerchantAdminUseCases,
  MoneyOpsUseCases,
  OperatorUseCases,
  OpsUseCases,
  WebhookOpsUseCases,
} from '../../api/ops/use-cases';
import { AuditRepository } from '../../store/audit-repository';
import { DashboardInvitationRepository } from '../../store/dashboard-invitation-repository';
import { DashboardUserRepository } from '../../store/dashboard-user-repository';
import { OperatorTokenRepository } from '../../store/operator-token-repository';
import { ReconciliationRepository } from '../../store/reconciliation-repository';
import { SettlementReadRepository } from '../../store/settlement-read-repository';
import { SplitRepository } from '../../store/split-repository';
import { WebhookEndpointRepository } from '../../store/webhook-endpoint-repository';
import { WebhookRepository } from '../../store/webhook-repository';
import { AesGcmPayloadCodec, codecKeysOf } from '../../temporal/payload-codec';
import { auditTrail, type AuditTrail } from '../../usecases/audit-trail';
import { applyChargeback } from '../../usecases/chargeback';
import { refusedWebhookUrl, webhookAddressPolicy } from '../../usecases/check-webhook-url';
import { createInvitation, ownerInPlace } from '../../usecases/dashboard-invitations';
import { linkSubMerchant } from '../../usecases/link-sub-merchant';
import { merchantSettlements } from '../../usecases/merchant-settlements';
import {
  apiKeyView,
  createApiKey,
  encryptionKeysView,
  listApiKeys,
  retireEncryptionKey,
  revokeApiKey,
  revokePreviousSecretKey,
  rotateEncryptionKey,
  rotateSecretKey,
  rotateWebhookSigningSecret,
} from '../../usecases/merchant-keys';
import { operatorTokens } from '../../usecases/operator-tokens';
import { provisionMerchant } from '../../usecases/provision-merchant';
import { reconciliationReport, startReconciliation } from '../../usecases/reconcile';
import { replayDelivery, replayFailedSince } from '../../usecases/replay-webhook';
import { settlementAccountUseCases } from '../../usecases/settlement-account';
import { settlementOperations } from '../../usecases/settlement-operations';
import { updateMerchant } from '../../usecases/update-merchant';
import { enableEndpoint, endpointHealth, listDeliveries } from '../../usecases/webhook-deliveries';
import type { Runtime } from '../runtime';
import { settlementAccountDeps, settlementRepositories } from './settlement-deps';

/** The ops audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildOpsUseCases(rt: Runtime): OpsUseCases {
  const trail = auditTrail(new AuditRepository(rt.store.db), rt.now);
  return {
    ...operatorUseCases(rt, trail),
    ...merchantAdminUseCases(rt),
    ...webhookOpsUseCases(rt),
    ...moneyOpsUseCases(rt, trail),
    ...codecUseCases(rt),
  };
}

function operatorUseCases(rt: Runtime, trail: AuditTrail): OperatorUseCases {
  const tokens = operatorTokens(
    { tokens: new OperatorTokenRepository(rt.store.db), trail, now: rt.now },
    rt.config.secrets.opsToken,
  );
  return {
    identifyOperator: (presented) => tokens.identify(presented),
    listOperatorTokens: () => tokens.list(),
    createOperatorToken: (name, scopes, actor, from) => tokens.create(name, scopes, actor, from),
    rotateOperatorToken: (name, actor, from) => tokens.rotate(name, actor, from),
    revokeOperatorToken: (name, actor, from) => tokens.revoke(name, actor, from),
    recordAudit: (action, actor, at) => trail.record(action, actor, at),
    listAudit: (query) => trail.list(query),
  };
}

function merchantAdminUseCases(rt: Runtime): MerchantAdminUseCases {
  const { merchants } = rt;
  const invitations = {
    merchants,
    dashboardUsers: new DashboardUserRepository(rt.store.db),
    dashboardInvitations: new DashboardInvitationRepository(rt.store.db),
    now: rt.now,
    publicBaseUrl: rt.config.http.publicBaseUrl,
    invitationHours: rt.config.dashboard.invitationHours,
  };
  const addressPolicy = webhookAddressPolicy(rt.config);
  return {
    merchantExists: async (merchantIdentifier) => (await merchants.findById(merchantIdentifier)) !== null,
    webhookUrlRefusal: (url) => refusedWebhookUrl(url, addressPolicy),
    provisionMerchant: (merchant) => provisionMerchant(merchants, merchant, rt.now()),
    updateMerchantSettings: (merchantIdentifier, settings) => updateMerchant(merchants, merchantIdentifier, settings),
    ownerInPlace: (merchantIdentifier) => ownerInPlace(invitations, merchantIdentifier),
    inviteDashboardUser: (merchantIdentifier, invite) => createInvitation(invitations, merchantIdentifier, invite),
    listApiKeys: async (merchantIdentifier) => (await listApiKeys(merchants, merchantIdentifier))?.map(apiKeyView) ?? null,
    createApiKey: (merchantIdentifier, label) => createApiKey(merchants, merchantIdentifier, label, rt.now()),
    async revokeApiKey(merchantIdentifier, keyId) {
      const key = await revokeApiKey(merchants, merchantIdentifier, keyId, rt.now());
      return typeof key === 'string' ? key : apiKeyView(key);
    },
    rotateSecretKey: (merchantIdentifier, overlapMs) => rotateSecretKey(merchants, merchantIdentifier, overlapMs, rt.now()),
    revokePreviousSecretKey: (merchantIdentifier, acceptedUntil) =>
      revokePreviousSecretKey(merchants, merchantIdentifier, acceptedUntil, rt.now()),
    async encryptionKeys(merchantIdentifier) {
      const merchant = await merchants.findById(merchantIdentifier);
      return merchant ? encryptionKeysView(merchant) : null;
    },
    rotateEncryptionKey: (merchantIdentifier) => rotateEncryptionKey(merchants, merchantIdentifier, rt.now()),
    retireEncryptionKey: (merchantIdentifier, keyId) => retireEncryptionKey(merchants, merchantIdentifier, keyId, rt.now()),
  };
}

function webhookOpsUseCases(rt: Runtime): WebhookOpsUseCases {
  const webhooks = new WebhookRepository(rt.store.db, rt.config.secrets.masterKey);
  const deliveries = {
    merchants: rt.merchants,
    webhooks,
    webhookEndpoints: new WebhookEndpointRepository(rt.store.db),
    now: rt.now,
  };
  const replays = { webhooks, temporal: rt.temporal, taskQueue: rt.config.temporal.taskQueue };
  return {
    listWebhookDeliveries: (filter, limit) => listDeliveries(deliveries, filter, limit),
    findWebhookDelivery: (deliveryId) => webhooks.findSummary(deliveryId),
    replayWebhook: (deliveryId) => replayDelivery(replays, deliveryId),
    replayFailedWebhooks: (since, merchantIdentifier) => replayFailedSince(replays, since, merchantIdentifier),
    webhookSigningSecrets: (merchantIdentifier) => rt.merchants.webhookSigningSecrets(merchantIdentifier, rt.now()),
    rotateWebhookSigningSecret: (merchantIdentifier, overlapMs) =>
      rotateWebhookSigningSecret(rt.merchants, merchantIdentifier, overlapMs, rt.now()),
    webhookEndpointHealth: (merchantIdentifier) => endpointHealth(deliveries, merchantIdentifier),
    enableWebhookEndpoint: (merchantIdentifier) => enableEndpoint(deliveries, merchantIdentifier),
  };
}

function moneyOpsUseCases(rt: Runtime, trail: AuditTrail): MoneyOpsUseCases {
  const settlements = settlementOperations({ ...rt, ...settlementRepositories(rt.store.db) });
  const accounts = settlementAccountUseCases(settlementAccountDeps(rt, trail));
  const splits = new SplitRepository(rt.store.db);
  const reconciliations = new ReconciliationRepository(rt.store.db);
  const reconciling = { reconciliations, temporal: rt.temporal, taskQueue: rt.config.temporal.taskQueue, now: rt.now };
  const settlementReads = { merchants: rt.merchants, settlementReads: new SettlementReadRepository(rt.store.db) };
  return {
    feePlanOf: (merchantIdentifier) => settlements.feePlanOf(merchantIdentifier),
    setFeePlan: (merchantIdentifier, plan) => settlements.setFeePlan(merchantIdentifier, plan),
    holdSettlements: (merchantIdentifier) => settlements.hold(merchantIdentifier),
    releaseSettlements: (merchantIdentifier) => settlements.release(merchantIdentifier),
    runSettlement: (merchantIdentifier, settlementDate) => settlements.run(merchantIdentifier, settlementDate),
    settlementsNeedingAttention: () => settlements.needsAttention(),
    settlementDifferences: (date, limit) => settlements.differences(date, limit),
    findSettlement: (settlementId) => settlements.find(settlementId),
    merchantSettlements: (merchantIdentifier, limit) => merchantSettlements(settlementReads, merchantIdentifier, limit),
    settlementAccount: (merchantIdentifier) => accounts.view(merchantIdentifier),
    proposeSettlementAccount: (merchantIdentifier, account, origin) => accounts.propose(merchantIdentifier, account, origin),
    confirmSettlementAccount: (merchantIdentifier, named, origin) => accounts.confirm(merchantIdentifier, named, origin),
    confirmSettlementAccountEarly: (merchantIdentifier, accountLast4, origin) =>
      accounts.confirmEarly(merchantIdentifier, accountLast4, origin),
    linkSubMerchant: (merchantIdentifier, masterMerchantIdentifier, customIdentifier) =>
      linkSubMerchant(splits, merchantIdentifier, masterMerchantIdentifier, customIdentifier),
    applyChargeback: (order, action, amountPaise) => applyChargeback(rt, order, action, amountPaise),
    startReconciliation: (fileText) => startReconciliation(reconciling, fileText),
    reconciliationReport: (reconciliationId) => reconciliationReport(reconciling, reconciliationId),
  };
}

function codecUseCases(rt: Runtime): CodecUseCases {
  // Temporal UI shows what it is given: a payload in clear is shown as it is, never refused here.
  const codec = new AesGcmPayloadCodec(
    codecKeysOf(rt.config.secrets.masterKey, rt.config.payloadCodec.previousMasterKeys),
    () => true,
  );
  return {
    encodePayloads: (payloads) => codec.encode(payloads),
    decodePayloads: (payloads) => codec.decode(payloads),
  };
}
