import type { AccountChangedEvent } from '../domain/account-webhook';
import type { LateUpdate } from '../domain/webhook-late';
import type { RecordedUpdate } from '../domain/webhook-update';

/*
 * The webhook delivery workflow's contract (workflows/webhook.ts): what it is started with and
 * what it ends with. Kept apart from the workflow so the activities and the client code that start
 * it need not import the workflow (which imports the activities' types: an import cycle).
 */

export interface WebhookDeliveryInput {
  deliveryId: string;
  merchantIdentifier: string;
  orderId: string;
  /** A replay sends the stored bytes of this earlier delivery again. */
  replayOf?: string;
  /** A non-real-time call: the late updates it carries. */
  late?: LateUpdate[];
  /** A non-real-time call of one refund outcome or chargeback change, as recorded. */
  update?: RecordedUpdate;
  /** A `settlement.processed` call: the paid settlement it reports (`settlement:<merchant>:<date>`). */
  settlementId?: string;
  /** An `account.changed` call: the change it reports (last four digits only). */
  accountChange?: AccountChangedEvent;
  /**
   * Handed over by a failed first attempt inside the transaction's workflow: the delivery goes on
   * from this attempt (2), after the schedule's wait before it. Absent: from attempt 1.
   */
  fromAttempt?: number;
  /**
   * Handed over after a first attempt answered 429 or 503 with Retry-After: the wait the receiver
   * asked for, which replaces the schedule's wait before attempt 2 when shorter.
   */
  retryAfterMs?: number;
  /**
   * Started with that wait as the workflow's start delay: the server held the first workflow task
   * back, so the workflow sends attempt `fromAttempt` at once, with no timer of its own.
   */
  waitedBeforeStart?: true;
}

/** How a delivery ended (`delivered`, `failed`, or `not sent: <why>`), after how many attempts. */
export interface WebhookDeliveryResult {
  state: string;
  attempts: number;
}

export const WEBHOOK_DELIVERY_WORKFLOW_TYPE = 'webhookDeliveryWorkflow';

/** The real-time webhook of an order's outcome: one per order, whichever process makes it. */
export const realtimeDeliveryId = (order: { merchantIdentifier: string; orderId: string }) =>
  `rt:${order.merchantIdentifier}:${order.orderId}`;

/** One delivery, named by its deliveryId. */
export const webhookDeliveryWorkflowId = (deliveryId: string) => `webhook:${deliveryId}`;

/** The workflow's signature, for a typed start by name. */
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;

/**
 * The preparation of a delivery's call, one per kind: the webhook activities themselves, or a
 * workflow's proxies of them. Each builds the call once, stores it under its delivery id and
 * answers what to send (`P`).
 */
export interface WebhookCallPreparations<P> {
  prepareReplayWebhook(input: { deliveryId: string; replayOf: string }): Promise<P>;
  prepareLateWebhook(input: { deliveryId: string; merchantIdentifier: string; late: LateUpdate[] }): Promise<P>;
  prepareUpdateWebhook(input: { deliveryId: string; merchantIdentifier: string; update: RecordedUpdate }): Promise<P>;
  prepareSettlementWebhook(input: { deliveryId: string; merchantIdentifier: string; settlementId: string }): Promise<P>;
  prepareAccountWebhook(input: { deliveryId: string; merchantIdentifier: string; event: AccountChangedEvent }): Promise<P>;
  prepareRealtimeWebhook(input: WebhookDeliveryInput): Promise<P>;
}

/** Prepares the call a delivery carries, by its kind: a replay, late updates, an update, a settlement, an account change, or else the real-time one. */
export function prepareWebhookCall<P>(input: WebhookDeliveryInput, prepare: WebhookCallPreparations<P>): Promise<P> {
  const { deliveryId, merchantIdentifier } = input;
  if (input.replayOf !== undefined) return prepare.prepareReplayWebhook({ deliveryId, replayOf: input.replayOf });
  if (input.late !== undefined) return prepare.prepareLateWebhook({ deliveryId, merchantIdentifier, late: input.late });
  if (input.update !== undefined) return prepare.prepareUpdateWebhook({ deliveryId, merchantIdentifier, update: input.update });
  if (input.settlementId !== undefined)
    return prepare.prepareSettlementWebhook({ deliveryId, merchantIdentifier, settlementId: input.settlementId });
  if (input.accountChange !== undefined)
    return prepare.prepareAccountWebhook({ deliveryId, merchantIdentifier, event: input.accountChange });
  return prepare.prepareRealtimeWebhook(input);
}
