/** A webhook delivery as stored and read: its attempts, its state, and (on a replay) its original. */

/** `superseded`: never (again) sent, because the order had a later change of the same kind before an attempt (webhook-supersession.ts). */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'superseded';

/**
 * The change of an order a call reports, by its number among the order's changes of its kind, kept
 * with the delivery: a real-time call's outcome (Transaction.outcomeSeq when it was built), or a
 * chargeback change (its ChargebackChange.version, Transaction.chargebackVersion once written).
 */
/**
 * The order's change a call reports, checked for a later change before each attempt. `replay`
 * marks a replay's copy: the change was attempted by the delivery it replays, so the replay has no
 * first attempt of its own to keep.
 */
export type DeliveryOrderEvent = { orderId: string; replay?: true } & ({ outcomeSeq: number } | { chargebackVersion: number });

export interface WebhookAttempt {
  attempt: number;
  at: Date;
  httpStatus: number | null;
  /** The first 512 bytes of the answer. */
  response: string | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookDelivery {
  _id: string;
  merchantIdentifier: string;
  realtime: boolean;
  url: string;
  contentType: string;
  /** The exact body, sent byte for byte on every attempt. */
  body: string;
  state: DeliveryState;
  attempts: WebhookAttempt[];
  createdAt: Date;
  /** Set on a replay: the delivery whose bytes it sends again (always an original, never a replay). */
  replayOf?: string;
  /** On an original: how many replays were started; the latest is `<id>:replay-<n>` (replayDeliveryId). */
  replayGeneration?: number;
  /** Why a failed delivery stopped before its schedule ended (`endpoint disabled`). */
  failureReason?: string;
  /** A real-time call or a chargeback change (and their replays): the change it reports, superseded by a later one. */
  orderEvent?: DeliveryOrderEvent;
  /** On a superseded delivery: the later change that superseded it (`outcome 2 of the order`, `chargeback change 7 of the order`). */
  supersededBy?: string;
}

/** A delivery without its body, as listings show it. */
export type WebhookDeliverySummary = Omit<WebhookDelivery, 'body'>;

export interface DeliveryFilter {
  merchantIdentifier?: string;
  state?: DeliveryState;
  createdSince?: Date;
}

/** A replay started: the delivery asked for, and the replay's own id. */
export interface ReplayStarted {
  deliveryId: string;
  replayId: string;
}

/** A merchant's endpoint health as operators read it. */
export interface WebhookEndpointHealth {
  merchantIdentifier: string;
  state: 'enabled' | 'disabled';
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  attempts: number;
  successes: number;
}

/** What the merchant's endpoint answered to a test call (not stored as a delivery). */
export interface TestWebhookResult {
  url: string;
  deliveryId: string;
  httpStatus: number | null;
  /** The first 512 bytes of the answer. */
  response: string | null;
  error: string | null;
  acknowledged: boolean;
}
