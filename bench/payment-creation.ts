/**
 * Sandbox payment creation over HTTP (merchant lookup, store insert, workflow start; the worker
 * running the payments meanwhile) beside raw workflow starts on a task queue nobody polls, at the
 * same concurrency.
 */
import { randomBytes } from 'node:crypto';
import type { TestGateway } from '../test/support/gateway';
import { httpLoad, loopLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';
import { paymentWorkflowId } from '../src/temporal/workflow-ids';
import { paymentFinished } from '../test/support/payments';
import { describeWork, historyWork, meanWork, rateLimitsOf, storeCommandCounter } from './support/work';

export async function benchPaymentCreation(
  gw: TestGateway,
  o: { connections: number; seconds: number },
): Promise<{ rows: BenchRow[]; details: Record<string, LoadResult> }> {
  const merchant = await gw.newMerchant('Bench payments');
  const run = randomBytes(3).toString('hex');
  const counter = storeCommandCounter();
  counter.start();
  const create = await httpLoad({
    url: `${gw.baseUrl}/sandbox/v1/payments`,
    requests: [
      {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          merchantIdentifier: merchant.merchantIdentifier,
          orderId: `pay-${run}-SEQ`,
          amount: 10_000,
          productDescription: 'Masala chai',
          payerVpa: 'success@sandbox',
        }),
      },
    ],
    sequenceToken: 'SEQ',
    ...o,
  });

  // The last payments created are still running: counted until they end, so the starts below count none of theirs.
  const last = create.total ?? 0;
  await Promise.all(
    Array.from({ length: 4 * o.connections }, (_, k) =>
      paymentFinished(gw, merchant.merchantIdentifier, `pay-${run}-${last - 2 * o.connections + k}`).catch(() => undefined),
    ),
  );
  const createCommands = counter.stop();
  const created = await gw.rt.store.db
    .collection('transactions')
    .countDocuments({ merchantIdentifier: merchant.merchantIdentifier });
  const unpolled = `bench-unpolled-${run}`;
  counter.start();
  const starts = await loopLoad(
    (i) =>
      gw.rt.temporal.workflow.start('paymentWorkflow', {
        workflowId: `bench-start-${run}-${i}`,
        taskQueue: unpolled,
        args: [{}],
      }),
    { concurrency: o.connections, seconds: o.seconds },
  );
  const startCommands = counter.stop();
  const histories = await Promise.all(
    [0, 1, 2, 3, 4].map(async (i) => {
      const h = await gw.rt.temporal.workflow
        .getHandle(paymentWorkflowId(merchant.merchantIdentifier, `pay-${run}-${i}`))
        .fetchHistory();
      return historyWork(h.events ?? []);
    }),
  );
  const createWork = describeWork({
    does: `unsigned POST /sandbox/v1/payments (UPI success@sandbox, a new orderId each) by autocannon, ${o.connections} connections, answered once the workflow is started; the worker in the same process runs each payment meanwhile (no webhook URL)`,
    temporal: meanWork(histories),
    // Per payment created: autocannon leaves out the requests in flight when it stops, whose payments were counted too.
    storeCommands: { byName: createCommands, operations: created },
    logLevel: gw.rt.config.observability.logLevel,
    rateLimits: rateLimitsOf(gw.rt.config.limits.requestsPerSecond),
  });
  const startWork = describeWork({
    does: `start paymentWorkflow through the gateway's client on a task queue nobody polls, ${o.connections} at a time: the start alone (no HTTP, no workflow task, no activity)`,
    storeCommands: { byName: startCommands, operations: starts.total ?? 0 },
  });
  return {
    rows: [
      ratioRow(
        'sandbox payment creation/s',
        {
          label: `${round(create.perSecond)}/s, p99 ${create.p99Ms} ms, ${create.failures} failed`,
          value: create.failures ? 0 : create.perSecond,
          work: createWork,
        },
        { label: `raw workflow starts ${round(starts.perSecond)}/s`, value: starts.perSecond, work: startWork },
        { atLeast: 0.8 },
      ),
    ],
    details: { 'sandbox payment creation': create, 'raw workflow start (unpolled queue)': starts },
  };
}
