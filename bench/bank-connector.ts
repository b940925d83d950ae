/**
 * The network boundary's cost: payments created through the merchant-signed checkout and carried to
 * their final outcome (the workflow's result), through the http connector against the bank
 * simulator on loopback, beside the same through the in-process sandbox bank, at the same
 * concurrency, in the same run. Measurements rotate (sandbox, http, bare; http, bare, sandbox; ...)
 * so a noisy neighbour or a warming cache hits each alike.
 *
 * Each payment goes as a merchant's customer pays: the merchant's signed `POST /transactU?v=8`
 * (HMAC checksum), the hosted page, its pay form with a UPI address; the merchant has a webhook URL
 * on a loopback receiver answering 200 at once, so every payment also sends its webhook.
 *
 * Each kind of payment is also set beside a bare workflow that runs one no-op local
 * activity (bench/bare-workflow/), as the payment's steps are local activities, started and awaited
 * by the same client on the same server, at the same concurrency: what a payment costs beyond the
 * least a workflow with one step costs (target 0.8).
 */
import { randomBytes } from 'node:crypto';
import { paymentWorkflowId } from '../src/temporal/workflow-ids';
import { payOnCheckoutPage, postTransactU, v8Data } from '../test/support/checkout';
import type { TestGateway } from '../test/support/gateway';
import { paymentFinished } from '../test/support/payments';
import type { MerchantCredentials } from '../src/usecases/provision-merchant';
import { loopLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';
import { startLoopbackReceiver } from './support/webhook-receiver';
import { describeWork, historyWork, meanWork, rateLimitsOf, storeCommandCounter } from './support/work';
import { withBareWorkflowWorker } from './bare-workflow/worker';

/** Workflows of each kind whose histories say what the kind asks of Temporal. */
const SAMPLE = 5;

export async function benchBankConnector(
  sandbox: TestGateway,
  http: TestGateway,
  o: { connections: number; seconds: number; rounds?: number },
): Promise<{ rows: BenchRow[]; details: Record<string, LoadResult> }> {
  if (!http.bank) throw new Error('the http gateway must pay through the bank simulator');
  const run = randomBytes(3).toString('hex');
  const receiver = await startLoopbackReceiver();
  const merchants = new Map<TestGateway, MerchantCredentials>();
  for (const gw of [sandbox, http]) {
    const merchant = await gw.newMerchant('Bench bank');
    await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
    merchants.set(gw, merchant);
  }
  const sampled = { sandbox: [] as string[], http: [] as string[], bare: [] as string[] };
  const sample = (kind: keyof typeof sampled, workflowId: string) => {
    if (sampled[kind].length < SAMPLE) sampled[kind].push(workflowId);
  };

  const payAndFinish = (gw: TestGateway, kind: 'sandbox' | 'http', label: string) => async (i: number) => {
    const merchant = merchants.get(gw)!;
    const orderId = `bank-${run}-${label}-${i}`;
    const posted = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId, { orderDetail: { amount: '10000' } }), {
      browser: true,
    });
    if (posted.status !== 303 || !posted.location) throw new Error(`checkout answered ${posted.status}: ${posted.text}`);
    await payOnCheckoutPage(gw, posted.location, [['payerVpa', 'success@sandbox']]);
    const result = await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    if (result.status !== 'Success') throw new Error(`ended ${result.status}`);
    if (!label.startsWith('warm')) sample(kind, paymentWorkflowId(merchant.merchantIdentifier, orderId));
  };

  const bareQueue = `bench-bare-${run}`;
  const bareWorkflow = (label: string) => async (i: number) => {
    const workflowId = `bench-bare-${run}-${label}-${i}`;
    await sandbox.rt.temporal.workflow.execute('bareOneActivityWorkflow', { workflowId, taskQueue: bareQueue });
    if (!label.startsWith('warm')) sample('bare', workflowId);
  };
  const kinds = {
    sandbox: { label: 'in-process sandbox', op: (r: string) => payAndFinish(sandbox, 'sandbox', r) },
    http: { label: 'http connector + simulator', op: (r: string) => payAndFinish(http, 'http', r) },
    bare: { label: 'bare workflow, one no-op local activity', op: bareWorkflow },
  };
  const names = Object.keys(kinds) as (keyof typeof kinds)[];
  const rates = { sandbox: [] as number[], http: [] as number[], bare: [] as number[] };
  const details: Record<string, LoadResult> = {};
  // Store commands each kind sent while measured, and the operations they were sent for.
  const counter = storeCommandCounter();
  const commands = {
    sandbox: {} as Record<string, number>,
    http: {} as Record<string, number>,
    bare: {} as Record<string, number>,
  };
  const operations = { sandbox: 0, http: 0, bare: 0 };
  await withBareWorkflowWorker(sandbox, bareQueue, async () => {
    // A short warm-up of each (workflow bundle caches, connections), not counted.
    for (const name of names) await loopLoad(kinds[name].op(`warm`), { concurrency: o.connections, seconds: 1 });
    for (let r = 0; r < (o.rounds ?? 4); r++) {
      // Rotating which goes first, so none always runs on the warmer (or busier) machine.
      for (const name of [...names.slice(r % names.length), ...names.slice(0, r % names.length)]) {
        counter.start();
        const result = await loopLoad(kinds[name].op(`${name}${r}`), { concurrency: o.connections, seconds: o.seconds });
        for (const [command, n] of Object.entries(counter.stop())) commands[name][command] = (commands[name][command] ?? 0) + n;
        operations[name] += result.total ?? 0;
        details[`${kinds[name].label}, round ${r + 1}`] = result;
        rates[name].push(result.perSecond);
      }
    }
  });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const books = http.bank.books.snapshot(merchants.get(http)?.merchantIdentifier);
  const failures = Object.values(details).reduce((n, d) => n + d.failures, 0);
  // The bank's books agree with the gateway: every payment paid once, none asked twice.
  const paid = books.payments.filter((p) => p.answer.status === 'APPROVED').length;
  const agree = books.totals.paidPaise === paid * 10_000 && books.totals.repeatedRequests === 0;
  await receiver.close();
  const webhooks = [...receiver.acked.values()].reduce((a, b) => a + b, 0);
  const temporalWork = async (kind: keyof typeof sampled) =>
    meanWork(
      await Promise.all(
        sampled[kind].map(async (id) =>
          historyWork((await sandbox.rt.temporal.workflow.getHandle(id).fetchHistory()).events ?? []),
        ),
      ),
    );
  const paymentWork = async (gw: TestGateway, kind: 'sandbox' | 'http') =>
    describeWork({
      does: `merchant-signed checkout (POST /transactU?v=8, HMAC checksum), the hosted page (GET), its pay form (POST, UPI success@sandbox), then the workflow's result; bank: ${kind === 'http' ? 'http connector to the bank simulator on loopback' : 'in-process sandbox'}; webhook URL set, loopback receiver answering 200 at once (${webhooks} acknowledged over both kinds)`,
      temporal: await temporalWork(kind),
      storeCommands: { byName: commands[kind], operations: operations[kind] },
      logLevel: gw.rt.config.observability.logLevel,
      rateLimits: rateLimitsOf(gw.rt.config.limits.requestsPerSecond),
    });
  const bareWork = describeWork({
    does: "start bareOneActivityWorkflow and await its result through the gateway's client (no HTTP, no webhook)",
    temporal: await temporalWork('bare'),
    storeCommands: { byName: commands.bare, operations: operations.bare },
  });
  const work = { sandbox: await paymentWork(sandbox, 'sandbox'), http: await paymentWork(http, 'http'), bare: bareWork };
  return {
    rows: [
      ratioRow(
        'payment creation + completion/s, http connector vs in-process sandbox',
        {
          label: `http ${round(mean(rates.http))}/s (${paid} paid at the bank, ${failures} failed${agree ? '' : ', BOOKS DISAGREE'})`,
          value: failures || !agree ? 0 : mean(rates.http),
          work: work.http,
        },
        { label: `sandbox ${round(mean(rates.sandbox))}/s`, value: mean(rates.sandbox), work: work.sandbox },
        { atLeast: 0.8 },
      ),
      ratioRow(
        'payment end to end/s (signed checkout, paid, recorded, webhook acknowledged), in-process sandbox vs a bare workflow running one no-op local activity',
        { label: `sandbox ${round(mean(rates.sandbox))}/s`, value: mean(rates.sandbox), work: work.sandbox },
        { label: `bare ${round(mean(rates.bare))}/s`, value: mean(rates.bare), work: work.bare },
        { atLeast: 0.8 },
      ),
      ratioRow(
        'payment end to end/s (signed checkout, paid, recorded, webhook acknowledged), http connector + bank simulator vs a bare workflow running one no-op local activity',
        { label: `http ${round(mean(rates.http))}/s`, value: failures || !agree ? 0 : mean(rates.http), work: work.http },
        { label: `bare ${round(mean(rates.bare))}/s`, value: mean(rates.bare), work: work.bare },
        { atLeast: 0.8 },
      ),
    ],
    details,
  };
}
