/** A webhook delivery as stored and read: its attempts, its state, and (on a replay) its original. */

export type DeliveryState = 'pending' | 'delivered' | 'failed';

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
