import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { WebhookRepository } from '../store/webhook-repository';
import { startWebhookDeliveryWorkflow } from '../temporal/webhook-delivery-start';

export interface ReplayDeps {
  webhooks: WebhookRepository;
  temporal: Client;
  taskQueue: string;
}

/** How many failed deliveries one "replay all since" call starts at most. */
export const REPLAY_ALL_LIMIT = 1000;

/**
 * Sends a delivery again: a new delivery (its own id, workflow and attempts) of the same stored
 * bytes, linked to the first by `replayOf`. Returns the new delivery id, or null when there is no
 * such delivery.
 */
export async function replayDelivery(deps: ReplayDeps, deliveryId: string): Promise<string | null> {
  const first = await deps.webhooks.find(deliveryId);
  if (!first) return null;
  const replayId = `${first._id}:replay-${randomBytes(6).toString('hex')}`;
  await startWebhookDeliveryWorkflow(deps, {
    deliveryId: replayId,
    merchantIdentifier: first.merchantIdentifier,
    orderId: '',
    replayOf: first._id,
  });
  return replayId;
}

/** Replays every failed delivery created since `since` (optionally of one merchant). */
export async function replayFailedSince(
  deps: ReplayDeps,
  since: Date,
  merchantIdentifier?: string,
): Promise<{ deliveryId: string; replayId: string }[]> {
  const failed = await deps.webhooks.list(
    { state: 'failed', createdSince: since, ...(merchantIdentifier === undefined ? {} : { merchantIdentifier }) },
    REPLAY_ALL_LIMIT,
  );
  const started: { deliveryId: string; replayId: string }[] = [];
  for (const d of failed) {
    const replayId = await replayDelivery(deps, d._id);
    if (replayId) started.push({ deliveryId: d._id, replayId });
  }
  return started;
}
