/**
 * Sandbox payment creation over HTTP (merchant lookup, store insert, workflow start; the worker
 * running the payments meanwhile) beside raw workflow starts on a task queue nobody polls, at the
 * same concurrency.
 */
import { randomBytes } from 'node:crypto';
import type { TestGateway } from '../test/support/gateway';
import { httpLoad, loopLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';

export async function benchPaymentCreation(
  gw: TestGateway,
  o: { connections: number; seconds: number },
): Promise<{ rows: BenchRow[]; details: Record<string, LoadResult> }> {
  const merchant = await gw.newMerchant('Bench payments');
  const run = randomBytes(3).toString('hex');
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

  const unpolled = `bench-unpolled-${run}`;
  const starts = await loopLoad(
    (i) =>
      gw.rt.temporal.workflow.start('paymentWorkflow', {
        workflowId: `bench-start-${run}-${i}`,
        taskQueue: unpolled,
        args: [{}],
      }),
    { concurrency: o.connections, seconds: o.seconds },
  );
  return {
    rows: [
      ratioRow(
        'sandbox payment creation/s',
        {
          label: `${round(create.perSecond)}/s, p99 ${create.p99Ms} ms, ${create.failures} failed`,
          value: create.failures ? 0 : create.perSecond,
        },
        { label: `raw workflow starts ${round(starts.perSecond)}/s`, value: starts.perSecond },
        { atLeast: 0.8 },
      ),
    ],
    details: { 'sandbox payment creation': create, 'raw workflow start (unpolled queue)': starts },
  };
}
