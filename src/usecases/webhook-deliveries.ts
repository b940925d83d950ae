import type { MerchantRepository } from '../store/merchant-repository';
import type { WebhookEndpointHealth, WebhookEndpointRepository } from '../store/webhook-endpoint-repository';
import type { DeliveryFilter, WebhookDelivery, WebhookDeliverySummary, WebhookRepository } from '../store/webhook-repository';
import { realtimeDeliveryId } from '../temporal/webhook-contract';

export type { DeliveryFilter, WebhookDelivery, WebhookDeliverySummary, WebhookEndpointHealth };

/**
 * What the ops API and the dashboard read of a merchant's webhooks (the deliveries with their
 * attempts, the endpoint's health) and the one change besides replays: enabling a disabled endpoint.
 */
export interface WebhookDeliveryDeps {
  merchants: MerchantRepository;
  webhooks: WebhookRepository;
  webhookEndpoints: WebhookEndpointRepository;
  now: () => Date;
}

/** Deliveries matching the filter, newest first, without their bodies. */
export function listDeliveries(
  deps: Pick<WebhookDeliveryDeps, 'webhooks'>,
  filter: DeliveryFilter,
  limit: number,
): Promise<WebhookDeliverySummary[]> {
  return deps.webhooks.list(filter, limit);
}

/** One delivery, with its stored body. */
export function findDelivery(deps: Pick<WebhookDeliveryDeps, 'webhooks'>, deliveryId: string): Promise<WebhookDelivery | null> {
  return deps.webhooks.find(deliveryId);
}

/** The real-time webhook of an order, stored under its delivery id (workflows/realtime-webhook.ts). */
export function orderRealtimeDelivery(
  deps: Pick<WebhookDeliveryDeps, 'webhooks'>,
  order: { merchantIdentifier: string; orderId: string },
): Promise<WebhookDelivery | null> {
  return deps.webhooks.find(realtimeDeliveryId(order));
}

/** The merchant's endpoint health; null for an unknown merchant. */
export async function endpointHealth(
  deps: Pick<WebhookDeliveryDeps, 'merchants' | 'webhookEndpoints'>,
  merchantIdentifier: string,
): Promise<WebhookEndpointHealth | null> {
  if (!(await deps.merchants.findById(merchantIdentifier))) return null;
  return deps.webhookEndpoints.health(merchantIdentifier);
}

/** Sends calls to the merchant's endpoint again after it was disabled; null for an unknown merchant. */
export async function enableEndpoint(
  deps: Pick<WebhookDeliveryDeps, 'merchants' | 'webhookEndpoints' | 'now'>,
  merchantIdentifier: string,
): Promise<WebhookEndpointHealth | null> {
  if (!(await deps.merchants.findById(merchantIdentifier))) return null;
  return deps.webhookEndpoints.enable(merchantIdentifier, deps.now());
}

/** Everything the dashboard's Webhooks page shows of a merchant; null for an unknown merchant. */
export async function webhookOverview(deps: WebhookDeliveryDeps, merchantIdentifier: string, logSize: number) {
  const [merchant, secrets, health, deliveries] = await Promise.all([
    deps.merchants.findById(merchantIdentifier),
    deps.merchants.webhookSigningSecrets(merchantIdentifier, deps.now()),
    deps.webhookEndpoints.health(merchantIdentifier),
    deps.webhooks.list({ merchantIdentifier }, logSize),
  ]);
  return merchant ? { merchant, secrets: secrets ?? [], health, deliveries } : null;
}

/** What the dashboard's overview shows of the webhooks: the endpoint's health and the failed deliveries of a period (at most `limit`). */
export async function webhookTrouble(
  deps: Pick<WebhookDeliveryDeps, 'webhooks' | 'webhookEndpoints'>,
  merchantIdentifier: string,
  period: { from: Date; until: Date },
  limit: number,
) {
  const [endpoint, failed] = await Promise.all([
    deps.webhookEndpoints.health(merchantIdentifier),
    deps.webhooks.failedBetween(merchantIdentifier, period.from, period.until, limit),
  ]);
  return { endpoint, failed };
}
