import type { z } from 'zod';
import type { AuditAction, AuditActor, AuditDetail, AuditRecord } from '../../domain/audit';
import type { CreatedInvitation } from '../../domain/dashboard-invitation';
import type { DashboardRole } from '../../domain/dashboard-roles';
import type { AcceptResult, DashboardInvitation, DashboardSession, DashboardUser } from '../../domain/dashboard-staff';
import type { Mandate } from '../../domain/mandate';
import type { ApiKeyInfo, Merchant, WebhookSigningSecret } from '../../domain/merchant';
import type { DayFigures } from '../../domain/overview';
import type { CheckedLinkEntry, PaymentLink, RefusedLinkEntry } from '../../domain/payment-link';
import type { RefundResponseKey, UpdateDesired } from '../../domain/refund';
import type { Settlement, SettlementLine } from '../../domain/settlement';
import type { MaskedSettlementAccount, PendingSettlementAccount, SettlementAccountInput } from '../../domain/settlement-account';
import type { Transaction } from '../../domain/transaction';
import type { TxnStatusName } from '../../domain/txn-status';
import type {
  TestWebhookResult,
  WebhookDelivery,
  WebhookDeliverySummary,
  WebhookEndpointHealth,
} from '../../domain/webhook-delivery';
import type { merchantSettingsSchema } from '../schemas/ops';

/** A merchant's RSA keys as the key use cases answer them, the newest first. */
export interface EncryptionKeys {
  encryptionKeys: { encryptionKeyId: string }[];
}

/** Records read as the store yields them (a CSV download streams them): closed when the answer ends. */
export type RecordCursor<T> = AsyncIterable<T> & { close(): Promise<void> };

/** One failed-password attempt taken (see sign-in-limits.ts): refused for `refusedMs`, or 0 and given back when the password was right. */
export interface PasswordAttempt {
  refusedMs: number;
  giveBack: () => Promise<unknown>;
}

/**
 * What the dashboard audience's operations may ask of the application: each use case bound at start-up
 * (src/main/use-cases/dashboard.ts) to the store, Temporal and the bank. Types come from src/domain only,
 * so nothing here (nor any route that uses it) reaches the store or Temporal.
 */
export interface DashboardUseCases
  extends
    DashboardStaffUseCases,
    DashboardKeyUseCases,
    DashboardWebhookUseCases,
    DashboardPaymentUseCases,
    DashboardSettlementUseCases {
  /** The merchant, null when unknown. */
  findMerchant(merchantIdentifier: string): Promise<Merchant | null>;
  /** Records a change in the audit trail (after the change is stored). */
  recordAudit(
    action: AuditAction,
    actor: AuditActor,
    o: { merchantIdentifier: string; from: string | null; detail?: AuditDetail },
  ): Promise<unknown>;
  /** The merchant's audit trail, newest first. */
  listAudit(o: {
    merchantIdentifier: string;
    before?: Date;
    limit: number;
  }): Promise<(Omit<AuditRecord, 'at'> & { id: string; at: string })[]>;
  /** The overview's daily figures of the last `days` IST days up to `now`'s, oldest first. */
  overviewFigures(merchantIdentifier: string, now: Date, days: number): Promise<DayFigures[]>;
  /** The endpoint's health and the period's failed deliveries (at most `limit`). */
  webhookTrouble(
    merchantIdentifier: string,
    period: { from: Date; until: Date },
    limit: number,
  ): Promise<{ endpoint: WebhookEndpointHealth; failed: WebhookDeliverySummary[] }>;
}

/** Sessions, sign-in, invitations and the merchant's users. */
export interface DashboardStaffUseCases {
  /** The session of a cookie's token, if it exists and has not expired now. */
  findSession(token: string): Promise<DashboardSession | null>;
  findUser(email: string): Promise<DashboardUser | null>;
  /** Email and password to a new session's token; null for a wrong password or an unknown email. */
  signIn(email: string, password: string): Promise<{ token: string } | null>;
  endSession(token: string): Promise<unknown>;
  /** Signs the user out everywhere. */
  endSessionsOf(email: string): Promise<unknown>;
  /** One failed-password attempt of the account from the address, counted before the password is checked. */
  takePasswordAttempt(email: string, address: string): Promise<PasswordAttempt>;
  findInvitation(token: string): Promise<DashboardInvitation | null>;
  acceptInvitation(token: string, password: string): Promise<AcceptResult>;
  /** Throws InvitationRefusedError when the email has an account already. */
  inviteUser(
    merchantIdentifier: string,
    invite: { email: string; role: DashboardRole; invitedBy: string },
  ): Promise<CreatedInvitation>;
  listUsers(merchantIdentifier: string): Promise<DashboardUser[]>;
  /** The user, only if it is this merchant's. */
  findUserOfMerchant(merchantIdentifier: string, email: string): Promise<DashboardUser | null>;
  setRole(merchantIdentifier: string, email: string, role: DashboardRole): Promise<unknown>;
  removeUser(merchantIdentifier: string, email: string): Promise<unknown>;
}

/** The Developers page: API keys, the secret key, the RSA keys (the ops API's and CLI's use cases). */
export interface DashboardKeyUseCases {
  listApiKeys(merchantIdentifier: string): Promise<ApiKeyInfo[] | null>;
  createApiKey(merchantIdentifier: string, label: string): Promise<{ apiKey: string; keyId: string; label: string } | null>;
  revokeApiKey(merchantIdentifier: string, keyId: string): Promise<ApiKeyInfo | 'merchantNotFound' | 'keyNotFound'>;
  /** A new secret key; the previous one is accepted during SECRET_KEY_ROTATION_OVERLAP's first overlap. */
  rotateSecretKey(merchantIdentifier: string): Promise<{ secretKey: string; previousKeyAcceptedUntil: string } | null>;
  revokePreviousSecretKey(merchantIdentifier: string, acceptedUntil: Date): Promise<object | null | 'unknown'>;
  /** The keys afterwards, the newest first. */
  rotateEncryptionKey(merchantIdentifier: string): Promise<EncryptionKeys | null>;
  retireEncryptionKey(merchantIdentifier: string, keyId: string): Promise<EncryptionKeys | 'unknown' | 'newest'>;
}

/** The Webhooks page. */
export interface DashboardWebhookUseCases {
  /** Everything the page shows; null for an unknown merchant. */
  webhookOverview(
    merchantIdentifier: string,
    logSize: number,
  ): Promise<{
    merchant: Merchant;
    secrets: WebhookSigningSecret[];
    health: WebhookEndpointHealth;
    deliveries: WebhookDeliverySummary[];
  } | null>;
  /** Why this webhook URL is refused (the address policy), or null. */
  refusedWebhookUrl(url: string): Promise<string | null>;
  updateWebhookSettings(merchantIdentifier: string, settings: z.infer<typeof merchantSettingsSchema>): Promise<unknown>;
  /** The secrets in use after the rotation, the new one first. */
  rotateWebhookSigningSecret(merchantIdentifier: string): Promise<WebhookSigningSecret[] | null>;
  enableEndpoint(merchantIdentifier: string): Promise<unknown>;
  sendTestWebhook(merchant: Merchant): Promise<TestWebhookResult | null>;
  findDelivery(deliveryId: string): Promise<WebhookDelivery | null>;
  /** The replay's delivery id. */
  replayDelivery(deliveryId: string): Promise<string | null>;
}

/** Transactions, refunds, payment links and mandates. */
export interface DashboardPaymentUseCases {
  findOrder(merchantIdentifier: string, orderId: string): Promise<Transaction | null>;
  findByTxnId(merchantIdentifier: string, txnId: string): Promise<Transaction | null>;
  findOrders(merchantIdentifier: string, orderIds: string[]): Promise<Transaction[]>;
  /** A search page (merchant_created): the period, after the keyset cursor, narrowed by `where`. */
  searchTransactions(q: {
    merchantIdentifier: string;
    from: Date;
    until: Date;
    after?: { createdAt: Date; txnId: string };
    where?: Record<string, unknown>[];
    limit: number;
  }): Promise<Transaction[]>;
  /** Every transaction initiated in the period with these statuses, delayed successes included: the ledger API's records. */
  ledgerCursor(q: { merchantIdentifier: string; from: Date; until: Date; statuses: TxnStatusName[] }): RecordCursor<Transaction>;
  /** Every transaction that succeeded in the period: the bulk API's records. */
  bulkCursor(q: { merchantIdentifier: string; from: Date; until: Date; statuses: TxnStatusName[] }): RecordCursor<Transaction>;
  /** The one refund use case (`/updateTxn`'s). */
  startRefund(r: {
    merchantIdentifier: string;
    orderId: string;
    updateDesired: UpdateDesired;
    amountPaise?: number;
    merchantRefId: string;
    updateReason: string;
  }): Promise<{ response: RefundResponseKey }>;
  /** The real-time webhook of an order. */
  orderRealtimeDelivery(order: { merchantIdentifier: string; orderId: string }): Promise<WebhookDelivery | null>;
  /** The Temporal workflow id of an order's payment (or mandate debit). */
  workflowIdOf(t: Transaction): string;
  paymentLinksCreatedBetween(merchantIdentifier: string, from: Date, until: Date, limit: number): Promise<PaymentLink[]>;
  /** The link API's use case, one batch. */
  createPaymentLinks(
    merchant: Merchant,
    batchId: string,
    entries: (CheckedLinkEntry | RefusedLinkEntry)[],
    ip: string | null,
  ): Promise<(Record<string, unknown> & { link: string | null; errorDescription?: string })[]>;
  /** The payer's address of a link. */
  linkUrl(token: string): string;
  mandatesCreatedBetween(merchantIdentifier: string, from: Date, until: Date, limit: number): Promise<Mandate[]>;
}

/** Settlements and the settlement bank account. */
export interface DashboardSettlementUseCases {
  latestSettlements(merchantIdentifier: string, limit: number): Promise<Settlement[]>;
  findSettlement(merchantIdentifier: string, settlementId: string): Promise<Settlement | null>;
  /** The first `limit` lines of a settlement. */
  settlementLines(merchantIdentifier: string, settlementId: string, limit: number): Promise<SettlementLine[]>;
  /** Every line of a settlement, for its CSV. */
  settlementLinesCursor(merchantIdentifier: string, settlementId: string): RecordCursor<SettlementLine>;
  /** The settlement that took this merchant's sale of txnId (its SALE line's), if one did. */
  settlementOfSale(
    merchantIdentifier: string,
    txnId: string,
  ): Promise<{ line: SettlementLine; settlement: Settlement | null } | null>;
  maskedSettlementAccount(merchantIdentifier: string): Promise<MaskedSettlementAccount | null>;
  pendingSettlementAccount(merchantIdentifier: string): Promise<PendingSettlementAccount | null>;
  /** An owner's change (their password already checked). */
  changeSettlementAccount(
    merchantIdentifier: string,
    account: SettlementAccountInput,
    origin: { actor: AuditActor; from: string | null },
  ): Promise<unknown>;
}
