import { condition, continueAsNew, defineSignal, patched, setHandler, sleep } from '@temporalio/workflow';
import { cutIntoCalls, lateDeliveryId, lateDeliveryId53, type LateUpdate } from '../src/domain/webhook-late';
import { deliverWebhook } from './realtime-webhook';

export const lateUpdateSignal = defineSignal<[LateUpdate]>('lateUpdate');

export interface WebhookBatchInput {
  merchantIdentifier: string;
  /** How long updates are gathered before they are cut into calls (WEBHOOK_BATCH_WINDOW). */
  windowMs: number;
  /** Updates carried over by continue-as-new. */
  carried?: LateUpdate[];
}

/** Rounds per run before continue-as-new keeps the history small. */
const ROUNDS_PER_RUN = 50;
/** Idle this long after a round and the workflow ends; the next update starts it again. */
const IDLE_MS = 60_000;

/**
 * Late updates of one merchant (workflow id `webhook-batch:<merchant>`, fed by signalWithStart):
 * gathered for a window, then cut into non-real-time deliveries of at most 10 transactions each.
 */
export async function webhookBatchWorkflow(input: WebhookBatchInput): Promise<void> {
  const pending: LateUpdate[] = [...(input.carried ?? [])];
  setHandler(lateUpdateSignal, (u) => void pending.push(u));
  for (let round = 0; round < ROUNDS_PER_RUN; round++) {
    if (!(await condition(() => pending.length > 0, IDLE_MS))) return;
    await sleep(input.windowMs);
    for (const call of cutIntoCalls(pending.splice(0))) {
      // Full-width ids; runs recorded before keep the 53-bit ids they sent.
      const deliveryId = patched('webhook-full-width-delivery-ids')
        ? lateDeliveryId(input.merchantIdentifier, call)
        : lateDeliveryId53(input.merchantIdentifier, call);
      await deliverWebhook({ deliveryId, merchantIdentifier: input.merchantIdentifier, orderId: '', late: call });
    }
  }
  await continueAsNew<typeof webhookBatchWorkflow>({ ...input, carried: pending.splice(0) });
}
