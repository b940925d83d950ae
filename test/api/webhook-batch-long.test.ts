import { strict as assert } from 'node:assert';
import type { Client } from '@temporalio/client';
import type { temporal as proto } from '@temporalio/proto';
import { reportLateUpdate, type LateUpdateDeps } from '../../src/usecases/report-late-update';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startReceiver, type ReceivedCall } from '../support/receiver';

type HistoryEvent = proto.api.history.v1.IHistoryEvent;

/** Every order id the non-real-time calls carried, in `txns`. */
const lateOrderIds = (calls: ReceivedCall[]) =>
  calls
    .filter((c) => c.url.endsWith('?realtime=false'))
    .flatMap((c) => JSON.parse(new URLSearchParams(c.body).get('txnData')!).txns.map((t: { orderid: string }) => t.orderid));

/** The runs of a workflow id, newest first, each with how many signals its history took. */
async function runsOf(temporal: Client, workflowId: string): Promise<{ runId: string; signals: number }[]> {
  const runs: { runId: string; signals: number }[] = [];
  let runId: string | undefined = (await temporal.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    const history: { events?: HistoryEvent[] | null } = await temporal.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: HistoryEvent[] = history.events ?? [];
    runs.push({ runId, signals: events.filter((e) => e.workflowExecutionSignaledEventAttributes).length });
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return runs;
}

async function until(what: () => boolean, label: string, seconds: number): Promise<void> {
  for (let i = 0; i < seconds * 10 && !what(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(what(), label);
}

/**
 * The merchant's batch workflow takes late updates as signals; Temporal refuses a run's signals
 * past 10,000 (the dev server enforces it, as production does). A run continues as new before its
 * budget and carries what it has not sent, so the workflow keeps working for ever.
 */
describe('Non-real-time webhook batches continue as new before Temporal limits', function () {
  this.timeout(600_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,200ms' });
  });
  after(async () => gw?.stop());

  /** Reports the updates `concurrency` at a time, with a short pause between (the senders are activities, not a flood). */
  async function report(deps: LateUpdateDeps, merchantIdentifier: string, orderIds: string[], concurrency: number) {
    const at = '2026-01-15T06:30:45.678Z';
    for (let i = 0; i < orderIds.length; i += concurrency) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      await Promise.all(
        orderIds
          .slice(i, i + concurrency)
          .map((orderId) => reportLateUpdate(deps, merchantIdentifier, { kind: 'txn', orderId, amountPaise: 1000, at })),
      );
    }
  }

  it('a run past its signal budget continues as new, carrying the updates not sent: each reaches the merchant once', async () => {
    const receiver = await startReceiver();
    try {
      const m = await gw.newMerchant('Batch budget');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const deps = {
        temporal: gw.rt.temporal,
        taskQueue: gw.rt.config.temporal.taskQueue,
        webhookBatchWindowMs: 300,
        webhookBatchSignalsPerRun: 40,
      };
      const orderIds = Array.from({ length: 230 }, (_, i) => `budget-${i}`);
      await report(deps, m.merchantIdentifier, orderIds, 10);
      await until(() => lateOrderIds(receiver.calls).length >= orderIds.length, 'every update sent', 120);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(lateOrderIds(receiver.calls).sort(), [...orderIds].sort(), 'each update once');
      const runs = await runsOf(gw.rt.temporal, `webhook-batch:${m.merchantIdentifier}`);
      // Past its budget a run closes at its first task with no update waiting (the server refuses to
      // close a run on an update it has not handled): the updates that arrive meanwhile still land
      // in it, so a run can take more than its budget, but they spread over runs, none lost or twice.
      assert.ok(runs.length >= 3, `continued as new: ${JSON.stringify(runs)}`);
      assert.ok(
        runs.every((r) => r.signals < orderIds.length / 2),
        `no run took most of them: ${JSON.stringify(runs)}`,
      );
      assert.equal(
        runs.reduce((n, r) => n + r.signals, 0),
        orderIds.length,
      );
    } finally {
      await receiver.close();
    }
  });
});
