import type { AuditAction, AuditActor, AuditDetail, AuditQuery, AuditRecordView } from '../../domain/audit';
import type { ChargebackAction, ChargebackResult } from '../../domain/chargeback';
import type { CodecPayload } from '../../domain/codec-payload';
import type { CreatedInvitation, InvitationAsked } from '../../domain/dashboard-invitation';
import type {
  ApiKeyView,
  EncryptionKeysView,
  IssuedApiKey,
  MerchantCredentials,
  MerchantSettings,
  MerchantSettingsView,
  MerchantToProvision,
  PreviousSecretKeyRevoked,
  SecretKeyRotated,
  WebhookSigningSecret,
} from '../../domain/merchant';
import type { Paise } from '../../domain/money';
import type { IssuedOperatorToken, OperatorIdentity, OperatorScope, OperatorTokenView } from '../../domain/operator-token';
import type { ReconciliationReport } from '../../domain/reconciliation';
import type { Settlement, SettlementDifference, SettlementRun } from '../../domain/settlement';
import type { ChangeOrigin, ProposalNamed, SettlementAccountInput, SettlementAccountView } from '../../domain/settlement-account';
import type { SettlementsNeedingAttention } from '../../domain/settlement-attention';
import type { FeePlan, MerchantFeePlan } from '../../domain/settlement-fees';
import type { LinkRefusal, SubMerchantLink } from '../../domain/split';
import type { DeliveryFilter, ReplayStarted, WebhookDeliverySummary, WebhookEndpointHealth } from '../../domain/webhook-delivery';

/** Operator tokens and the audit trail: who is asking, and what operators did. */
export interface OperatorUseCases {
  /** The operator a presented token names, or null for a missing, unknown or revoked token. */
  identifyOperator(presented: string): Promise<OperatorIdentity | null>;
  listOperatorTokens(): Promise<OperatorTokenView[]>;
  createOperatorToken(
    name: string,
    scopes: OperatorScope[],
    actor: AuditActor,
    from: string | null,
  ): Promise<IssuedOperatorToken>;
  rotateOperatorToken(name: string, actor: AuditActor, from: string | null): Promise<IssuedOperatorToken>;
  revokeOperatorToken(name: string, actor: AuditActor, from: string | null): Promise<OperatorTokenView>;
  /** Records a change once it is stored. */
  recordAudit(
    action: AuditAction,
    actor: AuditActor,
    at: { merchantIdentifier: string | null; from: string | null; detail?: AuditDetail },
  ): Promise<void>;
  listAudit(query: AuditQuery): Promise<AuditRecordView[]>;
}

/** Merchants, their dashboard's first users, and their keys. */
export interface MerchantAdminUseCases {
  merchantExists(merchantIdentifier: string): Promise<boolean>;
  /** Why a webhook address is refused (null: it is not). */
  webhookUrlRefusal(url: string): Promise<string | null>;
  /** Throws MerchantIdentifierTakenError for a taken identifier; nothing is stored then. */
  provisionMerchant(merchant: MerchantToProvision): Promise<MerchantCredentials>;
  /** Null for an unknown merchant. */
  updateMerchantSettings(merchantIdentifier: string, settings: MerchantSettings): Promise<MerchantSettingsView | null>;
  /** Whether the merchant has an owner, or an owner invitation still open. */
  ownerInPlace(merchantIdentifier: string): Promise<boolean>;
  /** Throws InvitationRefusedError for an unknown merchant or an email with an account. */
  inviteDashboardUser(merchantIdentifier: string, invite: InvitationAsked): Promise<CreatedInvitation>;
  /** Null for an unknown merchant (so below). */
  listApiKeys(merchantIdentifier: string): Promise<ApiKeyView[] | null>;
  createApiKey(merchantIdentifier: string, label: string): Promise<IssuedApiKey | null>;
  revokeApiKey(merchantIdentifier: string, keyId: string): Promise<ApiKeyView | 'merchantNotFound' | 'keyNotFound'>;
  rotateSecretKey(merchantIdentifier: string, overlapMs: number): Promise<SecretKeyRotated | null>;
  /** `unknown`: no previous key accepted until that time is still accepted. */
  revokePreviousSecretKey(merchantIdentifier: string, acceptedUntil: Date): Promise<PreviousSecretKeyRevoked | null | 'unknown'>;
  encryptionKeys(merchantIdentifier: string): Promise<EncryptionKeysView | null>;
  rotateEncryptionKey(merchantIdentifier: string): Promise<EncryptionKeysView | null>;
  /** `unknown`: no such key (or merchant); `newest`: the key encrypted with now, which cannot be retired. */
  retireEncryptionKey(merchantIdentifier: string, keyId: string): Promise<EncryptionKeysView | 'unknown' | 'newest'>;
}

/** Webhook deliveries, their replays, a merchant's signing secrets and endpoint. */
export interface WebhookOpsUseCases {
  listWebhookDeliveries(filter: DeliveryFilter, limit: number): Promise<WebhookDeliverySummary[]>;
  findWebhookDelivery(deliveryId: string): Promise<WebhookDeliverySummary | null>;
  /** The replay's id (its workflow started, or already started); null for an unknown delivery. */
  replayWebhook(deliveryId: string): Promise<string | null>;
  /** Every failed original since then (of one merchant, or all): the replays this call started. */
  replayFailedWebhooks(since: Date, merchantIdentifier?: string): Promise<ReplayStarted[]>;
  webhookSigningSecrets(merchantIdentifier: string): Promise<WebhookSigningSecret[] | null>;
  rotateWebhookSigningSecret(merchantIdentifier: string, overlapMs: number): Promise<WebhookSigningSecret[] | null>;
  webhookEndpointHealth(merchantIdentifier: string): Promise<WebhookEndpointHealth | null>;
  enableWebhookEndpoint(merchantIdentifier: string): Promise<WebhookEndpointHealth | null>;
}

/** Money: settlements, settlement accounts, sub-merchant links, chargebacks, reconciliations. */
export interface MoneyOpsUseCases {
  feePlanOf(merchantIdentifier: string): Promise<MerchantFeePlan>;
  setFeePlan(merchantIdentifier: string, plan: FeePlan): Promise<void>;
  holdSettlements(merchantIdentifier: string): Promise<{ payoutRequested: string[] }>;
  /** The settlements signalled to go on. */
  releaseSettlements(merchantIdentifier: string): Promise<string[]>;
  /** Throws ApiError settlementRunRefused for a date not (yet) to be settled. */
  runSettlement(merchantIdentifier: string, settlementDate: string): Promise<SettlementRun>;
  settlementsNeedingAttention(): Promise<SettlementsNeedingAttention>;
  settlementDifferences(date: string | undefined, limit: number): Promise<SettlementDifference[]>;
  findSettlement(settlementId: string): Promise<Settlement | null>;
  /** A merchant's latest settlements, newest date first; null for an unknown merchant. */
  merchantSettlements(merchantIdentifier: string, limit: number): Promise<Settlement[] | null>;
  settlementAccount(merchantIdentifier: string): Promise<SettlementAccountView>;
  /** Null for an unknown merchant. */
  proposeSettlementAccount(
    merchantIdentifier: string,
    account: SettlementAccountInput,
    origin: ChangeOrigin,
  ): Promise<SettlementAccountView | null>;
  confirmSettlementAccount(
    merchantIdentifier: string,
    named: ProposalNamed,
    origin: ChangeOrigin,
  ): Promise<SettlementAccountView | 'noProposal' | 'notNamed' | 'sameOperator'>;
  confirmSettlementAccountEarly(
    merchantIdentifier: string,
    accountLast4: string,
    origin: ChangeOrigin,
  ): Promise<SettlementAccountView | 'notCooling' | 'proposer'>;
  linkSubMerchant(
    merchantIdentifier: string,
    masterMerchantIdentifier: string | null,
    customIdentifier: string | null,
  ): Promise<SubMerchantLink | LinkRefusal>;
  applyChargeback(
    order: { merchantIdentifier: string; orderId: string },
    action: ChargebackAction,
    amountPaise: Paise,
  ): Promise<ChargebackResult>;
  /** The reconciliation's id; throws ReconciliationFileError for a file it cannot read. */
  startReconciliation(fileText: string): Promise<string>;
  reconciliationReport(reconciliationId: string): Promise<ReconciliationReport | null>;
}

/** Temporal's payload codec, for Temporal UI and the CLI: throws for a payload that does not decrypt. */
export interface CodecUseCases {
  encodePayloads(payloads: CodecPayload[]): Promise<CodecPayload[]>;
  decodePayloads(payloads: CodecPayload[]): Promise<CodecPayload[]>;
}

/**
 * What the ops audience's operations may ask of the application: each use case bound at start-up
 * (src/main/use-cases/ops.ts) to the store, Temporal and the bank. Types come from src/domain only,
 * so nothing here (nor any route that uses it) reaches the store or Temporal.
 */
export interface OpsUseCases
  extends OperatorUseCases, MerchantAdminUseCases, WebhookOpsUseCases, MoneyOpsUseCases, CodecUseCases {}
