import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { AccountChangedEvent } from '../src/domain/account-webhook';
import { settlementProcessedEvent } from '../src/domain/settlement-webhook';
import type { Merchant } from '../src/domain/merchant';
import type { Transaction } from '../src/domain/transaction';
import { realtimeEntry, webhookPayload } from '../src/domain/webhook';
import { lateEntry, type LateUpdate } from '../src/domain/webhook-late';
import { isQuickRetry, waitBefore } from '../src/domain/webhook-quick-retries';
import { updateTxnData, type RecordedUpdate } from '../src/domain/webhook-update';
import type { SettlementRepository } from '../src/store/settlement-repository';
import type { OrderRef, TransactionRepository } from '../src/store/transaction-repository';
import type { WebhookDelivery } from '../src/store/webhook-repository';
import { ENDPOINT_DISABLED } from '../src/store/webhook-endpoint-repository';
import { isActivityRetry } from './activity-retry';
import { createWebhookAttempt, type AttemptInput, type AttemptOutcome, type WebhookAttemptDeps } from './webhook-attempt';
import { prepareWebhookCall, type WebhookDeliveryInput } from '../src/temporal/webhook-contract';
import { startWebhookDeliveryWorkflow } from '../src/temporal/webhook-delivery-start';

export interface WebhookActivityDeps extends WebhookAttemptDeps {
  transactions: TransactionRepository;
  /** Settlements, read by the `settlement.processed` call. */
  settlementStore: Pick<SettlementRepository, 'find'>;
  webhookDisableAfterMs: number;
  /** Waits before each attempt (configuration WEBHOOK_RETRY_SCHEDULE). */
  webhookScheduleMs: number[];
  /** Attempts retried by the transaction's workflow itself (configuration WEBHOOK_QUICK_RETRIES_WITHIN). */
  webhookQuickRetriesWithinMs: number;
  /** How long late updates are gathered (configuration WEBHOOK_BATCH_WINDOW). */
  webhookBatchWindowMs: number;
  /** Delivery workflows are started through the client (startWebhookDelivery). */
  temporal: Client;
  taskQueue: string;
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

/** What the first attempt inside the transaction's workflow came to. */
export type FirstAttemptOutcome =
  | { state: 'delivered'; attempts: number }
  | { state: 'handed over'; attempts: number }
  | { state: 'failed'; reason: string }
  | { state: 'not sent'; reason: string };

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const { beginAttempt, attempt } = createWebhookAttempt(deps);

  /** Stores a call under its delivery id (the first stored bytes win) and hands the workflow what to send. */
  async function store(call: Omit<WebhookDelivery, 'state' | 'attempts' | 'createdAt'>): Promise<PreparedWebhook> {
    return preparedFrom(await deps.webhooks.createOrGet({ ...call, createdAt: deps.now() }));
  }

  function preparedFrom(stored: WebhookDelivery): PreparedWebhook {
    return {
      send: true,
      url: stored.url,
      contentType: stored.contentType,
      body: stored.body,
      scheduleMs: deps.webhookScheduleMs,
      stored: { state: stored.state, attempts: stored.attempts.length },
    };
  }

  /** The merchant's webhook address with only `?realtime=` as its query. */
  function callUrl(webhookUrl: string, realtime: boolean): string {
    const url = new URL(webhookUrl);
    url.search = '';
    url.searchParams.set('realtime', String(realtime));
    return url.toString();
  }

  const activities = {
    /**
     * Starts a delivery's own workflow, which outlives the caller. An activity rather than an
     * abandoned child: the time-skipping test server holds its clock still forever when a child
     * closes after its parent (it waits for the parent to acknowledge), so no child may outlive one.
     */
    async startWebhookDelivery(input: WebhookDeliveryInput): Promise<void> {
      await startWebhookDeliveryWorkflow(deps, input);
    },

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
        if (stored) return preparedFrom(stored);
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
      return store({
        _id: input.deliveryId,
        merchantIdentifier: t.merchantIdentifier,
        realtime: true,
        url: callUrl(merchant.webhookUrl, true),
        contentType: payload.contentType,
        body: payload.body,
      });
    },

    /**
     * Builds a non-real-time call once (short entries: reconciliation successes in txns,
     * auto-refunds in refunds) and stores it under its delivery id.
     */
    async prepareLateWebhook(input: {
      deliveryId: string;
      merchantIdentifier: string;
      late: LateUpdate[];
    }): Promise<PreparedWebhook> {
      const merchant = await deps.merchants.findById(input.merchantIdentifier);
      if (!merchant) return { send: false, reason: 'merchant not found' };
      if (!merchant.webhookUrl) return { send: false, reason: 'the merchant has no webhook URL' };
      const payload = webhookPayload(merchant.secretKey, merchant.webhookFormat, {
        merchantIdentifier: input.merchantIdentifier,
        txns: input.late.filter((u) => u.kind === 'txn').map(lateEntry),
        refunds: input.late.filter((u) => u.kind === 'refund').map(lateEntry),
      });
      return store({
        _id: input.deliveryId,
        merchantIdentifier: input.merchantIdentifier,
        realtime: false,
        url: callUrl(merchant.webhookUrl, false),
        contentType: payload.contentType,
        body: payload.body,
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
      const merchant = await deps.merchants.findById(input.merchantIdentifier);
      if (!merchant) return { send: false, reason: 'merchant not found' };
      if (!merchant.webhookUrl) return { send: false, reason: 'the merchant has no webhook URL' };
      const payload = webhookPayload(
        merchant.secretKey,
        merchant.webhookFormat,
        updateTxnData(input.merchantIdentifier, input.update),
      );
      return store({
        _id: input.deliveryId,
        merchantIdentifier: input.merchantIdentifier,
        realtime: false,
        url: callUrl(merchant.webhookUrl, false),
        contentType: payload.contentType,
        body: payload.body,
      });
    },

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
      return store(eventCall({ ...merchant, webhookUrl: merchant.webhookUrl }, s.merchantIdentifier, input.deliveryId, event));
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
        eventCall({ ...merchant, webhookUrl: merchant.webhookUrl }, input.merchantIdentifier, input.deliveryId, input.event),
      );
    },

    /**
     * A replay: the stored bytes of `replayOf` under a new delivery id, linked to the first. The URL
     * stays the one first called; the address is checked again on every attempt.
     */
    async prepareReplayWebhook(input: { deliveryId: string; replayOf: string }): Promise<PreparedWebhook> {
      const first = await deps.webhooks.find(input.replayOf);
      if (!first) return { send: false, reason: `no delivery ${input.replayOf}` };
      return store({
        _id: input.deliveryId,
        merchantIdentifier: first.merchantIdentifier,
        realtime: first.realtime,
        url: first.url,
        contentType: first.contentType,
        body: first.body,
        replayOf: first._id,
      });
    },

    /**
     * One attempt: POST the stored txnData, signed now; acknowledged only by a 2xx whose trimmed body is SUCCESS.
     * The attempt is logged, and an acknowledged one ends the delivery, in one store write.
     */
    async attemptWebhook(input: AttemptInput): Promise<AttemptOutcome> {
      // Never send again what the store shows delivered: an attempt repeated after its
      // acknowledgement was recorded (a worker lost the task, a restarted delivery) is acknowledged.
      const reads = input.merchantIdentifier !== undefined ? beginAttempt(input.merchantIdentifier) : null;
      const stored = await deps.webhooks.findSummary(input.deliveryId);
      if (stored?.state === 'delivered') return { acknowledged: true };
      const merchantIdentifier = input.merchantIdentifier ?? stored?.merchantIdentifier;
      return attempt(input, merchantIdentifier, reads ?? beginAttempt(merchantIdentifier));
    },

    async finishWebhook(input: { deliveryId: string; state: 'delivered' | 'failed' }): Promise<void> {
      await deps.webhooks.finish(input.deliveryId, input.state);
    },
  };

  return {
    ...activities,

    /**
     * The first attempts of a delivery, run by the workflow that changed the transaction right after
     * the outcome is stored: the call is built and stored once and attempted; a failed attempt is
     * retried by this activity's own retry while the schedule's waits stay within
     * WEBHOOK_QUICK_RETRIES_WITHIN (isQuickRetry), and after that the delivery is handed to its own
     * workflow (`webhook:<deliveryId>`), which goes on from the next attempt on the schedule. A
     * delivery acknowledged by then costs no workflow.
     *
     * Repeated (a quick retry, or a run repeated after a worker died or a completion was lost), it
     * numbers its attempt from the store's log and never sends what the store already settled: a
     * delivery stored as delivered is reported delivered; one whose next attempt is not a quick retry
     * is handed over without a new attempt. A worker that died between the POST and the store write
     * sends that attempt again, with the same bytes and `X-Webhook-Id`.
     *
     * `recorded`: the outcome's activity calling in-process with what its write returned, so the
     * real-time call is built without reading the order again (never set by a workflow).
     */
    async deliverWebhookFirstAttempt(input: WebhookDeliveryInput, recorded?: RecordedOutcome): Promise<FirstAttemptOutcome> {
      // The attempt's reads start beside the call's preparation when the merchant (cached) has an
      // address at all: a merchant without one costs no read more.
      const cached = recorded?.merchant ?? (await deps.merchants.findById(input.merchantIdentifier));
      const reads = cached?.webhookUrl ? beginAttempt(input.merchantIdentifier) : null;
      // A retry of this activity (a quick retry, or after a crash) sends what the store holds: one read
      // instead of building the call again and having its insert refused.
      const storedCall = isActivityRetry() ? await deps.webhooks.find(input.deliveryId) : null;
      const prepared = storedCall
        ? preparedFrom(storedCall)
        : await prepareWebhookCall(input, {
            ...activities,
            prepareRealtimeWebhook: (realtime) => activities.prepareRealtimeWebhook(realtime, recorded),
          });
      if (!prepared.send) return { state: 'not sent', reason: prepared.reason };
      const stored = prepared.stored ?? { state: 'pending', attempts: 0 };
      if (stored.state === 'delivered') return { state: 'delivered', attempts: stored.attempts };
      if (stored.state === 'failed') return { state: 'failed', reason: 'stored as failed already' };
      // The attempt this run makes: the first, or a quick retry after the attempts the store has logged
      // (a retry of this activity, or a run repeated after a worker died); otherwise it hands over.
      const schedule = prepared.scheduleMs;
      const next = stored.attempts + 1;
      let retryAfterMs: number | undefined;
      let made = stored.attempts;
      if (next === 1 || isQuickRetry(schedule, next, deps.webhookQuickRetriesWithinMs)) {
        const outcome = await attempt(
          {
            merchantIdentifier: input.merchantIdentifier,
            deliveryId: input.deliveryId,
            attempt: next,
            url: prepared.url,
            contentType: prepared.contentType,
            body: prepared.body,
          },
          input.merchantIdentifier,
          reads ?? beginAttempt(input.merchantIdentifier),
        );
        if (outcome.acknowledged) return { state: 'delivered', attempts: next };
        if (outcome.endpointDisabled) return { state: 'failed', reason: ENDPOINT_DISABLED };
        made = next;
        retryAfterMs = outcome.retryAfterMs;
        // A quick retry is this activity's own Temporal retry after the schedule's wait: no workflow,
        // no timer, no server round trip as a local activity. BENIGN: an expected failure, logged at debug.
        if (isQuickRetry(schedule, made + 1, deps.webhookQuickRetriesWithinMs)) {
          const wait = waitBefore(schedule, made + 1, retryAfterMs)!;
          throw ApplicationFailure.create({
            type: 'WebhookNotAcknowledged',
            message: `webhook attempt ${made} of ${input.deliveryId} not acknowledged; attempt ${made + 1} in ${wait} ms`,
            nextRetryDelay: Math.max(wait, 1),
            category: ApplicationFailureCategory.BENIGN,
          });
        }
      }
      // The wait before the next attempt (a Retry-After when shorter) as the delivery's start delay,
      // when this run made an attempt; past the schedule the delivery workflow records the failure.
      const startDelayMs = made > stored.attempts ? waitBefore(schedule, made + 1, retryAfterMs) : undefined;
      await startWebhookDeliveryWorkflow(
        deps,
        { ...input, fromAttempt: made + 1, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
        { ...(startDelayMs !== undefined ? { startDelayMs } : {}) },
      );
      return { state: 'handed over', attempts: made };
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
export type { AttemptOutcome };

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
