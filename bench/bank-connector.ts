/**
 * The network boundary's cost: sandbox payments created over HTTP and carried to their final
 * outcome (the workflow's result), through the http connector against the bank simulator on
 * loopback, beside the same through the in-process sandbox bank, at the same concurrency, in the
 * same run. Measurements rotate (sandbox, http, bare; http, bare, sandbox; ...) so a noisy
 * neighbour or a warming cache hits each alike.
 *
 * Issue 35: each kind of payment is also set beside a bare workflow that runs one no-op activity
 * (bench/bare-workflow/), started and awaited by the same client on the same server, at the same
 * concurrency: what a payment costs beyond the least a workflow with one step costs (target 0.8).
 */
import { randomBytes } from 'node:crypto';
import type { TestGateway } from '../test/support/gateway';
import { paymentFinished } from '../test/support/payments';
import { loopLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';
import { withBareWorkflowWorker } from './bare-workflow/worker';

export async function benchBankConnector(
  sandbox: TestGateway,
  http: TestGateway,
  o: { connections: number; seconds: number; rounds?: number },
): Promise<{ rows: BenchRow[]; details: Record<string, LoadResult> }> {
  if (!http.bank) throw new Error('the http gateway must pay through the bank simulator');
  const run = randomBytes(3).toString('hex');
  const merchants = new Map<TestGateway, string>();
  for (const gw of [sandbox, http]) merchants.set(gw, (await gw.newMerchant('Bench bank')).merchantIdentifier);

  const payAndFinish = (gw: TestGateway, label: string) => async (i: number) => {
    const merchantIdentifier = merchants.get(gw)!;
    const orderId = `bank-${run}-${label}-${i}`;
    const res = await fetch(`${gw.baseUrl}/sandbox/v1/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        merchantIdentifier,
        orderId,
        amount: 10_000,
        productDescription: 'Masala chai',
        payerVpa: 'success@sandbox',
      }),
    });
    if (res.status !== 202) throw new Error(`answered ${res.status}`);
    await res.arrayBuffer();
    const result = await paymentFinished(gw, merchantIdentifier, orderId);
    if (result.status !== 'Success') throw new Error(`ended ${result.status}`);
  };

  const bareQueue = `bench-bare-${run}`;
  const bareWorkflow = (label: string) => (i: number) =>
    sandbox.rt.temporal.workflow.execute('bareOneActivityWorkflow', {
      workflowId: `bench-bare-${run}-${label}-${i}`,
      taskQueue: bareQueue,
    });
  const kinds = {
    sandbox: { label: 'in-process sandbox', op: (r: string) => payAndFinish(sandbox, r) },
    http: { label: 'http connector + simulator', op: (r: string) => payAndFinish(http, r) },
    bare: { label: 'bare workflow, one no-op activity', op: bareWorkflow },
  };
  const names = Object.keys(kinds) as (keyof typeof kinds)[];
  const rates = { sandbox: [] as number[], http: [] as number[], bare: [] as number[] };
  const details: Record<string, LoadResult> = {};
  await withBareWorkflowWorker(sandbox, bareQueue, async () => {
    // A short warm-up of each (workflow bundle caches, connections), not counted.
    for (const name of names) await loopLoad(kinds[name].op(`warm`), { concurrency: o.connections, seconds: 1 });
    for (let r = 0; r < (o.rounds ?? 4); r++) {
      // Rotating which goes first, so none always runs on the warmer (or busier) machine.
      for (const name of [...names.slice(r % names.length), ...names.slice(0, r % names.length)]) {
        const result = await loopLoad(kinds[name].op(`${name}${r}`), { concurrency: o.connections, seconds: o.seconds });
        details[`${kinds[name].label}, round ${r + 1}`] = result;
        rates[name].push(result.perSecond);
      }
    }
  });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const books = http.bank.books.snapshot(merchants.get(http));
  const failures = Object.values(details).reduce((n, d) => n + d.failures, 0);
  // The bank's books agree with the gateway: every payment paid once, none asked twice.
  const paid = books.payments.filter((p) => p.answer.status === 'APPROVED').length;
  const agree = books.totals.paidPaise === paid * 10_000 && books.totals.repeatedRequests === 0;
  return {
    rows: [
      ratioRow(
        'payment creation + completion/s, http connector vs in-process sandbox',
        {
          label: `http ${round(mean(rates.http))}/s (${paid} paid at the bank, ${failures} failed${agree ? '' : ', BOOKS DISAGREE'})`,
          value: failures || !agree ? 0 : mean(rates.http),
        },
        { label: `sandbox ${round(mean(rates.sandbox))}/s`, value: mean(rates.sandbox) },
        { atLeast: 0.8 },
      ),
      ratioRow(
        'payment end to end/s (created, asked of the bank, recorded), in-process sandbox vs a bare workflow running one no-op activity',
        { label: `sandbox ${round(mean(rates.sandbox))}/s`, value: mean(rates.sandbox) },
        { label: `bare ${round(mean(rates.bare))}/s`, value: mean(rates.bare) },
        { atLeast: 0.8 },
      ),
      ratioRow(
        'payment end to end/s, http connector + bank simulator vs a bare workflow running one no-op activity',
        { label: `http ${round(mean(rates.http))}/s`, value: failures || !agree ? 0 : mean(rates.http) },
        { label: `bare ${round(mean(rates.bare))}/s`, value: mean(rates.bare) },
        { atLeast: 0.8 },
      ),
    ],
    details,
  };
}
