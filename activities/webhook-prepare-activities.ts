import type { AccountChangedEvent } from '../src/domain/account-webhook';
import type { Merchant } from '../src/domain/merchant';
import { settlementProcessedEvent } from '../src/domain/settlement-webhook';
import type { Transaction } from '../src/domain/transaction';
import { realtimeEntry, webhookPayload } from '../src/domain/webhook';
import { lateEntry, type LateUpdate } from '../src/domain/webhook-late';
import { updateTxnData, type RecordedUpdate } from '../src/domain/webhook-update';
import type { SettlementRepository } from '../src/store/settlement-repository';
import type { OrderRef, TransactionRepository } from '../src/store/transaction-repository';
import type { DeliveryOrderEvent } from '../src/domain/webhook-delivery';
import type { WebhookDelivery } from '../src/store/webhook-repository';
import type { WebhookAttemptDeps } from './webhook-attempt';

/** The webhook activities that build a call once and store it under its delivery id (webhook-activities.ts). */

export interface WebhookPrepareDeps extends Pick<WebhookAttemptDeps, 'merchants' | 'webhooks' | 'now'> {
  transactions: TransactionRepository;
  /** Settlements, read by the `settlement.processed` call. */
  settlementStore: Pick<SettlementRepository, 'find'>;
  /** Waits before each attempt (configuration WEBHOOK_RETRY_SCHEDULE). */
  webhookScheduleMs: number[];
}

export type PreparedWebhook =
  | {
      send: true;
      url: string;
      contentType: string;
      body: string;
      scheduleMs: number[];
      /** What the store already holds of this delivery (a repeated first-attempt activity reads it). */
      stored?: { state: WebhookDelivery['state']; attempts: number };
      /** The order's change it reports (a real-time call, a chargeback change), checked for a later one before each attempt. */
      orderEvent?: DeliveryOrderEvent;
    }
  | { send: false; reason: string };

/**
 * What the activity that just recorded an order's outcome holds already (the transaction as its write
 * left it, the merchant it read): handed in-process to the real-time call's preparation, which then
 * reads neither again. Never passed through Temporal.
 */
export interface RecordedOutcome {
  transaction: Transaction;
  merchant: Merchant;
}

/** Every activity that prepares a call, by the kind of call. */
export function createWebhookPrepareActivities(deps: WebhookPrepareDeps) {
  return {
    ...realtimeWebhookActivities(deps),
    ...updateWebhookActivities(deps),
    ...eventWebhookActivities(deps),
    ...replayWebhookActivities(deps),
  };
}

function realtimeWebhookActivities(deps: WebhookPrepareDeps) {
  return {
    /**
     * Builds the real-time webhook of an order's final outcome once and stores it under its
     * delivery id: every attempt (and a replay of this activity) sends the stored bytes.
     */
    async prepareRealtimeWebhook(
      input: OrderRef & { deliveryId: string; fromAttempt?: number },
      recorded?: RecordedOutcome,
    ): Promise<PreparedWebhook> {
      // Handed over after attempt 1: the call is stored already, and its stored bytes are what is sent.
      if ((input.fromAttempt ?? 1) > 1) {
        const stored = await deps.webhooks.find(input.deliveryId);
        if (stored) return preparedFrom(deps, stored);
      }
      // The merchant first (cached): one without an address costs no read of the order.
      const merchant = recorded?.merchant ?? (await deps.merchants.findById(input.merchantIdentifier));
      if (!merchant) return { send: false, reason: 'order or merchant not found' };
      if (!merchant.webhookUrl) return { send: false, reason: 'the merchant has no webhook URL' };
      const t = recorded?.transaction ?? (await deps.transactions.findByOrder(input));
      if (!t) return { send: false, reason: 'order or merchant not found' };
      // The body must say what the workflow recorded. Refunds and chargebacks since change no field
      // of the real-time entry; only a reconciliation's delayed success rewrites the outcome (a
      // Failure becomes Success), and it is never sent in real-time form: its non-real-time call
      // reports it. So a real-time call not stored before it is not sent at all.
      if (t.delayedSuccess && !(await deps.webhooks.findSummary(input.deliveryId))) {
        return { send: false, reason: 'the outcome became a delayed success, reported by the non-real-time webhook' };
      }
      const payload = webhookPayload(merchant.secretKey, merchant.webhookFormat, {
        merchantIdentifier: t.merchantIdentifier,
        txns: [realtimeEntry(t)],
        refunds: [],
      });
      return store(deps, {
        _id: input.deliveryId,
        merchantIdentifier: t.merchantIdentifier,
        realtime: true,
        url: callUrl(merchant.webhookUrl, true),
        contentType: payload.contentType,
        body: payload.body,
        // The outcome the body reports, by its place among the order's outcomes.
        orderEvent: { orderId: t.orderId, outcomeSeq: t.outcomeSeq ?? 0 },
      });
    },
  };
}

function updateWebhookActivities(deps: WebhookPrepareDeps) {
  return {
    /**
     * Builds a non-real-time call once (short entries: reconciliation successes in txns,
     * auto-refunds in refunds) and stores it under its delivery id.
     */
    async prepareLateWebhook(input: {
      deliveryId: string;
      merchantIdentifier: string;
      late: LateUpdate[];
    }): Promise<PreparedWebhook> {
      return storeLateCall(deps, input, {
        merchantIdentifier: input.merchantIdentifier,
        txns: input.late.filter((u) => u.kind === 'txn').map(lateEntry),
        refunds: input.late.filter((u) => u.kind === 'refund').map(lateEntry),
      });
    },

    /**
     * A refund outcome or chargeback change as a non-real-time call, built from the update its
     * workflow (or use case) recorded, once, and stored under its delivery id.
     */
    async prepareUpdateWebhook(input: {
      deliveryId: string;
      merchantIdentifier: string;
      update: RecordedUpdate;
    }): Promise<PreparedWebhook> {
      const u = input.update;
      // A chargeback change is superseded by a later one of the order (a raise by its revert).
      const orderEvent = u.kind === 'chargeback' ? { orderId: u.orderId, chargebackVersion: u.version } : undefined;
      return storeLateCall(deps, input, updateTxnData(input.merchantIdentifier, u), orderEvent);
    },
  };
}

function eventWebhookActivities(deps: WebhookPrepareDeps) {
  return {
    /**
     * A paid settlement's `settlement.processed` call, built once from the settlement as stored and
     * kept under its delivery id. The settlement workflow hands it over only for a merchant opted in
     * when the payout was recorded; the JSON is the `txnData` text, in the merchant's body format.
     */
    async prepareSettlementWebhook(input: {
      deliveryId: string;
      merchantIdentifier: string;
      settlementId: string;
    }): Promise<PreparedWebhook> {
      const [s, merchant] = await Promise.all([
        deps.settlementStore.find(input.settlementId),
        deps.merchants.findById(input.merchantIdentifier),
      ]);
      if (!s || !merchant || s.merchantIdentifier !== merchant.merchantIdentifier)
        return { send: false, reason: 'settlement or merchant not found' };
      if (s.state !== 'paid') return { send: false, reason: `the settlement is ${s.state}, not paid` };
      if (!merchant.webhookUrl) return { send: false, reason: 'the merchant has no webhook URL' };
      const event = settlementProcessedEvent(s);
      return store(
        deps,
        eventCall({ ...merchant, webhookUrl: merchant.webhookUrl }, s.merchantIdentifier, input.deliveryId, event),
      );
    },

    /**
     * A settlement bank account's change as an `account.changed` call (merchants opted in to
     * settlement webhooks), built once from the change the use case recorded and kept under its delivery id.
     */
    async prepareAccountWebhook(input: {
      deliveryId: string;
      merchantIdentifier: string;
      event: AccountChangedEvent;
    }): Promise<PreparedWebhook> {
      const merchant = await deps.merchants.findById(input.merchantIdentifier);
      if (!merchant) return { send: false, reason: 'merchant not found' };
      if (!merchant.webhookUrl) return { send: false, reason: 'the merchant has no webhook URL' };
      if (!merchant.settlementWebhook) return { send: false, reason: 'the merchant is not opted in to settlement webhooks' };
      return store(
        deps,
        eventCall({ ...merchant, webhookUrl: merchant.webhookUrl }, input.merchantIdentifier, input.deliveryId, input.event),
      );
    },
  };
}

function replayWebhookActivities(deps: WebhookPrepareDeps) {
  return {
    /**
     * A replay: the stored bytes of `replayOf` under a new delivery id, linked to the first. The URL
     * stays the one first called; the address is checked again on every attempt.
     */
    async prepareReplayWebhook(input: { deliveryId: string; replayOf: string }): Promise<PreparedWebhook> {
      const first = await deps.webhooks.find(input.replayOf);
      if (!first) return { send: false, reason: `no delivery ${input.replayOf}` };
      return store(deps, {
        _id: input.deliveryId,
        merchantIdentifier: first.merchantIdentifier,
        realtime: first.realtime,
        url: first.url,
        contentType: first.contentType,
        body: first.body,
        replayOf: first._id,
        // A replay of a stale change is superseded as its original's retries would be, from its first attempt.
        ...(first.orderEvent ? { orderEvent: { ...first.orderEvent, replay: true as const } } : {}),
      });
    },
  };
}

/** A non-real-time call (`?realtime=false`) of the merchant's `txnData`, stored under its delivery id. */
async function storeLateCall(
  deps: WebhookPrepareDeps,
  input: { deliveryId: string; merchantIdentifier: string },
  data: Parameters<typeof webhookPayload>[2],
  orderEvent?: DeliveryOrderEvent,
): Promise<PreparedWebhook> {
  const merchant = await deps.merchants.findById(input.merchantIdentifier);
  if (!merchant) return { send: false, reason: 'merchant not found' };
  if (!merchant.webhookUrl) return { send: false, reason: 'the merchant has no webhook URL' };
  const payload = webhookPayload(merchant.secretKey, merchant.webhookFormat, data);
  return store(deps, {
    _id: input.deliveryId,
    merchantIdentifier: input.merchantIdentifier,
    realtime: false,
    url: callUrl(merchant.webhookUrl, false),
    contentType: payload.contentType,
    body: payload.body,
    ...(orderEvent ? { orderEvent } : {}),
  });
}

/** Stores a call under its delivery id (the first stored bytes win) and hands the workflow what to send. */
async function store(
  deps: WebhookPrepareDeps,
  call: Omit<WebhookDelivery, 'state' | 'attempts' | 'createdAt'>,
): Promise<PreparedWebhook> {
  return preparedFrom(deps, await deps.webhooks.createOrGet({ ...call, createdAt: deps.now() }));
}

export function preparedFrom(deps: Pick<WebhookPrepareDeps, 'webhookScheduleMs'>, stored: WebhookDelivery): PreparedWebhook {
  return {
    send: true,
    url: stored.url,
    contentType: stored.contentType,
    body: stored.body,
    scheduleMs: deps.webhookScheduleMs,
    stored: { state: stored.state, attempts: stored.attempts.length },
    ...(stored.orderEvent ? { orderEvent: stored.orderEvent } : {}),
  };
}

/** The merchant's webhook address with only `?realtime=` as its query. */
function callUrl(webhookUrl: string, realtime: boolean): string {
  const url = new URL(webhookUrl);
  url.search = '';
  url.searchParams.set('realtime', String(realtime));
  return url.toString();
}

/** An event call (`settlement.processed`, `account.changed`): the JSON as `txnData`, to the merchant's address with `?event=<event>`. */
function eventCall(
  merchant: Pick<Merchant, 'secretKey' | 'webhookFormat'> & { webhookUrl: string },
  merchantIdentifier: string,
  deliveryId: string,
  event: { event: string },
): Omit<WebhookDelivery, 'state' | 'createdAt' | 'attempts'> {
  const payload = webhookPayload(merchant.secretKey, merchant.webhookFormat, JSON.stringify(event));
  // The merchant's address with `?event=...` as its query (payments carry `?realtime=`).
  const url = new URL(merchant.webhookUrl);
  url.search = '';
  url.searchParams.set('event', event.event);
  return {
    _id: deliveryId,
    merchantIdentifier,
    realtime: false,
    url: url.toString(),
    contentType: payload.contentType,
    body: payload.body,
  };
}
