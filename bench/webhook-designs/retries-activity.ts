import { ApplicationFailure } from '@temporalio/activity';
import { createWebhookActivities, type WebhookActivityDeps } from '../../activities/webhook-activities';
import type { WebhookDeliveryInput } from '../../src/temporal/webhook-contract';

/**
 * The design measured against the product and not kept (see workflows/webhook.ts): the whole
 * delivery as ONE activity of the transaction's workflow, its retries being the schedule. Each failed
 * attempt throws an ApplicationFailure whose `nextRetryDelay` is the schedule's next wait (or a
 * shorter Retry-After), so Temporal waits that long before the next try; no delivery workflow exists.
 * It reuses the product's preparation and attempt (same stored bytes, same attempt log), so the
 * benchmark compares only where the retries live. Bench-only: never registered by the gateway.
 */
export function createRetriesDeliveryActivities(deps: WebhookActivityDeps) {
  const webhook = createWebhookActivities(deps);
  return {
    async deliverWebhookWithRetries(input: WebhookDeliveryInput): Promise<{ state: string; attempts: number }> {
      const prepared = await webhook.prepareRealtimeWebhook(input);
      if (!prepared.send) return { state: `not sent: ${prepared.reason}`, attempts: 0 };
      const stored = prepared.stored ?? { state: 'pending', attempts: 0 };
      if (stored.state !== 'pending') return { state: stored.state, attempts: stored.attempts };
      // Numbered from the store's attempt log, not Temporal's retry counter: a worker that died before
      // logging its attempt repeats the same attempt number (a crash costs no step of the schedule).
      const attempt = stored.attempts + 1;
      const outcome = await webhook.attemptWebhook({
        deliveryId: input.deliveryId,
        merchantIdentifier: input.merchantIdentifier,
        attempt,
        url: prepared.url,
        contentType: prepared.contentType,
        body: prepared.body,
      });
      if (outcome.acknowledged) return { state: 'delivered', attempts: attempt };
      if (outcome.endpointDisabled) return { state: 'failed', attempts: attempt };
      if (attempt >= prepared.scheduleMs.length) {
        await webhook.finishWebhook({ deliveryId: input.deliveryId, state: 'failed' });
        return { state: 'failed', attempts: attempt };
      }
      const scheduled = prepared.scheduleMs[attempt]!;
      const wait = outcome.retryAfterMs !== undefined ? Math.min(outcome.retryAfterMs, scheduled) : scheduled;
      throw ApplicationFailure.create({
        type: 'WebhookAttemptFailed',
        message: `webhook attempt ${attempt} of ${input.deliveryId} not acknowledged`,
        nextRetryDelay: Math.max(wait, 1),
      });
    },
  };
}

export type RetriesDeliveryActivities = ReturnType<typeof createRetriesDeliveryActivities>;
