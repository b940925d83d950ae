/**
 * Issue 23's two designs for the retries after a failed first attempt, measured in one run on one
 * server against one receiver (see the comparison at the top of workflows/webhook.ts):
 * - the product: the first attempt is an activity of the transaction's workflow, retried by that
 *   activity while the waits stay within WEBHOOK_QUICK_RETRIES_WITHIN (issue 35); a delivery still
 *   failing then starts the delivery workflow `webhook:<deliveryId>`, which goes on with the schedule
 *   (with WEBHOOK_BENCH_QUICK_RETRIES_WITHIN=0, the hand-over after the first attempt alone);
 * - activity retries: the whole delivery is one activity of the transaction's workflow, retried
 *   with `nextRetryDelay` taken from the schedule (retries-activity.ts).
 * Both run as bench workflows (workflows.ts) on a worker of their own, over orders already stored,
 * in interleaved rounds; each reports deliveries/s and the Temporal events a delivery adds.
 */
import { createBenchWorker } from '../support/bench-worker';
import { createWebhookActivities } from '../../activities/webhook-activities';
import { activityDeps } from '../../src/main/runtime';
import type { TestGateway } from '../../test/support/gateway';
import { round, runConcurrently } from '../support/load';
import { createRetriesDeliveryActivities } from './retries-activity';

export const DESIGNS = ['product', 'activityRetries'] as const;
type Design = (typeof DESIGNS)[number];
const WORKFLOW: Record<Design, string> = {
  product: 'productDesignWorkflow',
  activityRetries: 'activityRetriesDesignWorkflow',
};
/** A workflow that does nothing records 5 events (started, a task scheduled/started/completed, completed). */
const BARE_WORKFLOW_EVENTS = 5;
const CONCURRENCY = 32;
/** Histories read per design for the event counts. */
const SAMPLE = 300;

export interface Receiver {
  /** Acknowledgements per X-Webhook-Id. */
  acked: Map<string, number>;
  /** Calls per X-Webhook-Id. */
  attempts: Map<string, number>;
}

export interface DesignFigures {
  design: Design;
  deliveries: number;
  delivered: number;
  acknowledgedTwice: number;
  firstAttemptFailed: number;
  perSecond: number;
  /** Temporal events a delivery adds (transaction workflow beyond a bare one, plus any delivery workflow). */
  eventsPerDelivery: { firstAttemptAcknowledged: number; firstAttemptFailed: number; mean: number };
  /** Workflows per delivery whose first attempt failed (the delivery workflow of a hand-over). */
  workflowsPerFailedDelivery: number;
  /** Longest a transaction's workflow stayed open waiting for its webhook (ms, this run's short schedule). */
  transactionWorkflowOpenMaxMs: number;
}

const deliveryId = (design: Design, run: string, i: number) => `bench-${design}:${run}:${i}`;
const workflowId = (design: Design, run: string, i: number) => `bench-${design}-${run}-${i}`;

export async function compareDeliveryDesigns(
  gw: TestGateway,
  o: { merchantIdentifier: string; orderIds: string[]; count: number; run: string; receiver: Receiver },
): Promise<DesignFigures[]> {
  const deps = activityDeps(gw.rt);
  const taskQueue = `bench-designs-${o.run}`;
  const { worker, connection } = await createBenchWorker(gw, {
    taskQueue,
    workflowsPath: require.resolve('./workflows'),
    activities: { ...createWebhookActivities(deps), ...createRetriesDeliveryActivities(deps) },
  });
  const seconds: Record<Design, number> = { product: 0, activityRetries: 0 };
  const openMs: Record<Design, number> = { product: 0, activityRetries: 0 };
  const deliver = async (design: Design, from: number, to: number) => {
    const ids = Array.from({ length: to - from }, (_, k) => deliveryId(design, o.run, from + k));
    const began = performance.now();
    await runConcurrently(to - from, CONCURRENCY, async (k) => {
      const i = from + k;
      const t0 = performance.now();
      await gw.rt.temporal.workflow.execute(WORKFLOW[design], {
        workflowId: workflowId(design, o.run, i),
        taskQueue,
        args: [
          {
            deliveryId: deliveryId(design, o.run, i),
            merchantIdentifier: o.merchantIdentifier,
            orderId: o.orderIds[i % o.orderIds.length]!,
          },
        ],
      });
      openMs[design] = Math.max(openMs[design], performance.now() - t0);
    });
    const deadline = Date.now() + 10 * 60_000;
    while (ids.some((id) => !o.receiver.acked.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    seconds[design] += (performance.now() - began) / 1000;
  };
  await worker.runUntil(async () => {
    // Warm-up (bundle, connections), then two interleaved rounds per design so drift hits both.
    for (const design of DESIGNS) await deliver(design, o.count, o.count + 20);
    const half = Math.floor(o.count / 2);
    for (const [from, to] of [
      [0, half],
      [half, o.count],
    ] as const)
      for (const design of DESIGNS) await deliver(design, from, to);
  });
  await connection.close();

  const figures: DesignFigures[] = [];
  for (const design of DESIGNS) {
    const ids = Array.from({ length: o.count }, (_, i) => deliveryId(design, o.run, i));
    const failedFirst = (id: string) => (o.receiver.attempts.get(id) ?? 0) > 1;
    const events = { ok: [] as number[], failed: [] as number[] };
    let deliveryWorkflows = 0;
    for (let i = 0; i < Math.min(SAMPLE, o.count); i++) {
      const own = (await gw.rt.temporal.workflow.getHandle(workflowId(design, o.run, i)).fetchHistory()).events?.length ?? 0;
      const handedOver = await gw.rt.temporal.workflow
        .getHandle(`webhook:${ids[i]}`)
        .fetchHistory()
        .then(
          (h) => h.events?.length ?? 0,
          () => null,
        );
      if (handedOver !== null && failedFirst(ids[i]!)) deliveryWorkflows++;
      (failedFirst(ids[i]!) ? events.failed : events.ok).push(own - BARE_WORKFLOW_EVENTS + (handedOver ?? 0));
    }
    const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);
    const delivered = ids.filter((id) => o.receiver.acked.has(id)).length;
    figures.push({
      design,
      deliveries: o.count,
      delivered,
      acknowledgedTwice: ids.filter((id) => (o.receiver.acked.get(id) ?? 0) > 1).length,
      firstAttemptFailed: ids.filter(failedFirst).length,
      perSecond: round(delivered / seconds[design]),
      eventsPerDelivery: {
        firstAttemptAcknowledged: mean(events.ok),
        firstAttemptFailed: mean(events.failed),
        mean: mean([...events.ok, ...events.failed]),
      },
      workflowsPerFailedDelivery: events.failed.length ? round(deliveryWorkflows / events.failed.length) : 0,
      transactionWorkflowOpenMaxMs: Math.round(openMs[design]),
    });
  }
  return figures;
}
