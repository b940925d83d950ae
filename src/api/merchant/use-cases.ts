import type { CheckoutRequest, StartCheckoutResult } from '../../domain/checkout';
import type { CheckoutEntry } from '../../domain/checkout-return';
import type { CreateQrRequest, CreateQrResult } from '../../domain/dynamic-qr';
import type { MandateAnswer, MandateRequest, NotifyRequest } from '../../domain/mandate';
import type { Merchant } from '../../domain/merchant';
import type { OrderRef } from '../../domain/order-ref';
import type { RecordCursor, SortKey } from '../../domain/page-keysets';
import type { CheckedLinkEntry, PaymentLinkResult, RefusedLinkEntry } from '../../domain/payment-link';
import type { RefundRequest, RefundResult } from '../../domain/refund';
import type { Settlement, SettlementLine } from '../../domain/settlement';
import type { Naming, SplitCode, SplitRequest, SplitShares } from '../../domain/split';
import type { StatusOrderRecord } from '../../domain/status-record';
import type { Transaction } from '../../domain/transaction';
import type { TxnStatusName } from '../../domain/txn-status';

/** A page of the merchant's transactions: those in [from, until), `limit` of them after `skip`, or after the sort key `after`. */
interface TransactionPageQuery {
  merchantIdentifier: string;
  from: Date;
  until: Date;
  statuses: TxnStatusName[];
  skip: number;
  limit: number;
  after?: SortKey;
}

/**
 * What the merchant audience's operations may ask of the application: each use case bound at start-up
 * (src/main/use-cases/merchant.ts) to the store, Temporal and the bank. Types come from src/domain only,
 * so nothing here (nor any route that uses it) reaches the store or Temporal.
 */
export interface MerchantUseCases {
  /** The order an orderId names, as the status API shows it (a transaction or a mandate); null when there is none. */
  readOrder(order: OrderRef): Promise<StatusOrderRecord | null>;
  /** The same, with the transaction behind the record (null for a mandate). */
  findOrder(order: OrderRef): Promise<{ record: StatusOrderRecord; transaction: Transaction | null } | null>;
  /** The merchant's transaction of that orderId, if there is one. */
  findTransaction(order: OrderRef): Promise<Transaction | null>;

  /** A hosted checkout's order (or the same request's again), its payment workflow started. */
  startCheckout(
    merchant: Merchant,
    entry: CheckoutEntry,
    request: CheckoutRequest & { returnUrl: string },
    ipAddress: string | null,
  ): Promise<StartCheckoutResult>;
  /** The JSON checkout answer's `bankPostData`: the UPI intent's app links, or (`qr`) its QR image. */
  checkoutBankPostData(merchant: Merchant, transaction: Transaction, qr: boolean): Promise<Record<string, string>>;

  /** A refund: its amount reserved on the order and its workflow started (the same request again answers as the first). */
  startRefund(request: RefundRequest): Promise<RefundResult>;
  /** A dynamic QR order, or the first request's data for a repeat of its orderId. */
  createQr(request: CreateQrRequest): Promise<CreateQrResult>;
  /** A batch of payment links, each entry answered on its own. */
  createPaymentLinks(
    merchant: Merchant,
    batchId: string,
    entries: (CheckedLinkEntry | RefusedLinkEntry)[],
    ipAddress: string | null,
  ): Promise<PaymentLinkResult[]>;

  /** The merchant's private key (PEM) of that encryption key id, unretired; null when there is none. */
  privateKeyPem(merchantIdentifier: string, keyId: string): Promise<string | null>;
  /** Mandate create, notify and execute (the merchant confirming a notified debit). */
  createMandate(merchant: Merchant, request: MandateRequest): Promise<MandateAnswer>;
  notifyMandate(merchant: Merchant, request: NotifyRequest): Promise<MandateAnswer>;
  confirmMandateDebit(merchant: Merchant, request: { orderId: string; mandateParentOrderId: string }): Promise<MandateAnswer>;

  /** How a split request names its sub-merchants (by identifier, or by the master's own names for them). */
  subMerchantNaming(
    masterMerchantIdentifier: string,
    request: SplitRequest,
  ): Promise<{ nameOf: (p: Naming) => string | null } | { refused: SplitCode; detail: string }>;
  /** Records the master's split of one of its paid orders, once. */
  splitOrder(masterMerchantIdentifier: string, shares: SplitShares): Promise<SplitCode>;

  /** The merchant's latest settlements, newest date first. */
  latestSettlements(merchantIdentifier: string, limit: number): Promise<Settlement[]>;
  /** The merchant's settlement lines of one UTR date (yyyy-MM-dd). */
  settlementLinesOfDate(merchantIdentifier: string, settlementDate: string): Promise<SettlementLine[]>;
  /** The UTR of each of those settlements of the merchant that has one, by settlement id. */
  settlementUtrs(merchantIdentifier: string, settlementIds: string[]): Promise<Map<string, string>>;

  /** A ledger page: transactions initiated in [from, until), oldest first then by txnId, streamed. */
  ledgerPage(query: TransactionPageQuery & { includeDelayedSuccess: boolean }): RecordCursor<Transaction>;
  /** A bulk page: transactions that succeeded in [from, until), by success time then txnId, streamed. */
  bulkPage(query: TransactionPageQuery): RecordCursor<Transaction>;
  /** Whether any of the merchant's transactions whose `field` lies in [from, upTo] was written at or after `since`. */
  transactionsWrittenSince(query: {
    merchantIdentifier: string;
    field: 'createdAt' | 'successAt';
    from: Date;
    upTo: Date;
    since: Date;
  }): Promise<boolean>;
}
