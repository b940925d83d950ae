import type { Client } from '@temporalio/client';
import type { WebhookRepository } from '../store/webhook-repository';
import { startWebhookDeliveryWorkflow } from '../temporal/webhook-delivery-client';

export interface ReplayDeps {
  webhooks: WebhookRepository;
  temporal: Client;
  taskQueue: string;
  /** Failed deliveries read per page by replayFailedSince (default REPLAY_PAGE_SIZE). */
  replayPageSize?: number;
}

/** Failed deliveries one page of "replay all since" reads: the reads stay bounded, the pages go on to the end. */
export const REPLAY_PAGE_SIZE = 200;

/** The n-th replay of an original delivery: the same id for the same generation, so a repeated start is the same delivery. */
export const replayDeliveryId = (originalId: string, generation: number) => `${originalId}:replay-${generation}`;

/**
 * The replay of a delivery that stands: an original's latest replay when it is pending, delivered,
 * or not stored yet (its start is ensured again); otherwise a new generation is taken and started.
 * A replay asked of a replay is a replay of its original: replays are never replayed themselves.
 * `started` tells whether this call started a new one. Null when there is no such delivery.
 */
async function ensureReplay(deps: ReplayDeps, deliveryId: string): Promise<{ replayId: string; started: boolean } | null> {
  const asked = await deps.webhooks.findSummary(deliveryId);
  if (!asked) return null;
  const originalId = asked.replayOf ?? asked._id;
  const start = (replayId: string, merchantIdentifier: string) =>
    startWebhookDeliveryWorkflow(deps, { deliveryId: replayId, merchantIdentifier, orderId: '', replayOf: originalId });
  for (;;) {
    const original = await deps.webhooks.findSummary(originalId);
    if (!original) return null;
    const generation = original.replayGeneration ?? 0;
    if (generation > 0) {
      const latestId = replayDeliveryId(originalId, generation);
      const latest = await deps.webhooks.findSummary(latestId);
      if (!latest) await start(latestId, original.merchantIdentifier);
      if (latest?.state !== 'failed') return { replayId: latestId, started: false };
    }
    if (await deps.webhooks.claimReplayGeneration(originalId, generation)) {
      const replayId = replayDeliveryId(originalId, generation + 1);
      await start(replayId, original.merchantIdentifier);
      return { replayId, started: true };
    }
  }
}

/**
 * Sends a delivery again: a replay (its own id, workflow and attempts) of the same stored txnData,
 * linked to the original by `replayOf`, signed with the keys in force when it is sent. Asked again
 * while that replay is pending or delivered, it answers the same replay and sends nothing more;
 * once the replay failed, the next one is started. Null when there is no such delivery.
 */
export async function replayDelivery(deps: ReplayDeps, deliveryId: string): Promise<string | null> {
  return (await ensureReplay(deps, deliveryId))?.replayId ?? null;
}

/**
 * Replays every failed original delivery created since `since` (optionally of one merchant),
 * oldest first, page after page to the end: originals whose replay is pending or delivered are
 * skipped, replays are never replayed, so the same request repeated starts nothing more. Returns
 * the replays this call started.
 */
export async function replayFailedSince(
  deps: ReplayDeps,
  since: Date,
  merchantIdentifier?: string,
): Promise<{ deliveryId: string; replayId: string }[]> {
  const pageSize = deps.replayPageSize ?? REPLAY_PAGE_SIZE;
  const filter = { since, ...(merchantIdentifier === undefined ? {} : { merchantIdentifier }) };
  const started: { deliveryId: string; replayId: string }[] = [];
  let after: { createdAt: Date; _id: string } | null = null;
  for (;;) {
    const page = await deps.webhooks.failedOriginalsSince(filter, after, pageSize);
    for (const d of page) {
      const replay = await ensureReplay(deps, d._id);
      if (replay?.started) started.push({ deliveryId: d._id, replayId: replay.replayId });
    }
    if (page.length < pageSize) return started;
    after = { createdAt: page.at(-1)!.createdAt, _id: page.at(-1)!._id };
  }
}
