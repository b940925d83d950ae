import { condition, setHandler, workflowInfo } from '@temporalio/workflow';
import { cutIntoCalls, lateDeliveryId, type LateUpdate } from '../src/domain/webhook-late';
import { lateUpdateSignal, type WebhookBatchInput } from '../src/temporal/webhook-batch-contract';
import { continueOntoCurrentBuild } from './continue-onto-current-build';
import { deliverWebhook } from './realtime-webhook';

/** Rounds per run before continue-as-new keeps the history small. */
const ROUNDS_PER_RUN = 50;
/**
 * Late updates (signals) one run takes before it continues as new: well under Temporal's 10,000
 * signals per run, and small enough that the updates carried over fit one payload.
 */
export const SIGNALS_PER_RUN = 2000;
/** Idle this long after a round and the workflow ends; the next update starts it again. */
const IDLE_MS = 60_000;

/**
 * Late updates of one merchant (workflow id `webhook-batch:<merchant>`, fed by signalWithStart):
 * gathered for a window, then cut into non-real-time deliveries of at most 10 transactions each.
 * A run continues as new after ROUNDS_PER_RUN rounds, and as soon as it has taken `signalsPerRun` updates or Temporal suggests it, even mid-window or between the
 * calls of a round: the updates not yet sent are carried to the next run, and the updates that
 * arrive meanwhile go to it (a signal that lands while the run closes makes the server retry the
 * task, so it is handled, never dropped).
 */
export async function webhookBatchWorkflow(input: WebhookBatchInput): Promise<void> {
  const pending: LateUpdate[] = [...(input.carried ?? [])];
  let taken = 0;
  setHandler(lateUpdateSignal, (u) => {
    pending.push(u);
    taken++;
  });
  const limit = input.signalsPerRun ?? SIGNALS_PER_RUN;
  const full = () => taken >= limit || workflowInfo().continueAsNewSuggested;
  const carryOn = (unsent: LateUpdate[]) =>
    continueOntoCurrentBuild<typeof webhookBatchWorkflow>({ ...input, carried: [...unsent, ...pending.splice(0)] });

  for (let round = 0; round < ROUNDS_PER_RUN; round++) {
    if (!(await condition(() => pending.length > 0, IDLE_MS))) return;
    await condition(full, input.windowMs);
    const calls = cutIntoCalls(pending.splice(0));
    for (const [i, call] of calls.entries()) {
      if (full()) return carryOn(calls.slice(i).flat());
      const deliveryId = lateDeliveryId(input.merchantIdentifier, call);
      await deliverWebhook({ deliveryId, merchantIdentifier: input.merchantIdentifier, orderId: '', late: call });
    }
    if (full()) return carryOn([]);
  }
  return carryOn([]);
}
