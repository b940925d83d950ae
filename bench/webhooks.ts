/**
 * Webhook delivery throughput: N deliveries (WEBHOOK_BENCH_COUNT, default 10,000) to a loopback
 * receiver that fails 20 % of first attempts at random, under a retry schedule shortened by
 * configuration, beside a plain loop sending the same number of POSTs to the same receiver.
 * Prints per-delivery-id counts (each id acknowledged exactly once, or duplicates counted) and the
 * ratio (target >= 0.5).
 *
 * Each delivery is started as the delivery workflow of one late update (a one-entry call): it goes
 * through the same workflow, stored-bytes activity, attempts and timers as a real-time webhook, without
 * the payment that would precede it, so the row measures delivery, not payment creation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { startTestGateway, stopGateways } from '../test/support/gateway';
import { stopTestServers } from '../test/support/servers';
import { round, runConcurrently } from './support/load';
import { ratioRow, report, runBench } from './support/report';

const COUNT = Number(process.env.WEBHOOK_BENCH_COUNT ?? 10_000);
const CONCURRENCY = 64;

async function main(): Promise<boolean> {
  const acked = new Map<string, number>();
  const attempts = new Map<string, number>();
  let failNext = true;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-webhook-id'] ?? `loop-${Math.random()}`);
      const first = req.headers['x-webhook-attempt'] === '1';
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      if (failNext && first && Math.random() < 0.2) return void res.writeHead(500).end('try later');
      acked.set(id, (acked.get(id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

  const gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,50ms,100ms,200ms,500ms,1s,2s,5s' });
  try {
    const m = await gw.newMerchant('Bench hooks');
    await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: url, webhookFormat: 'form' });
    const run = randomBytes(3).toString('hex');

    // The plain loop: the same number of POSTs of a body of the same size, CONCURRENCY at a time.
    failNext = false;
    const body = `txnData=${encodeURIComponent(JSON.stringify({ merchantIdentifier: m.merchantIdentifier, txns: [{ amount: 1000, orderid: 'x', txnDate: '2026-01-01 00:00:00.0' }], refunds: [] }))}&checksum=${'0'.repeat(64)}`;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const loopStart = performance.now();
    await runConcurrently(
      COUNT,
      CONCURRENCY,
      (i) =>
        new Promise<void>((resolve, reject) => {
          const r = http.request(
            url,
            {
              method: 'POST',
              agent,
              headers: {
                'content-type': 'application/x-www-form-urlencoded',
                'x-webhook-id': `loop-${i}`,
                'x-webhook-attempt': '1',
              },
            },
            (res) => res.resume().on('end', resolve),
          );
          r.on('error', reject);
          r.end(body);
        }),
    );
    const loopPerSecond = COUNT / ((performance.now() - loopStart) / 1000);
    agent.destroy();

    // What Temporal here can do at all for one workflow per delivery: bare starts (no worker runs
    // them) of the same workflow type on a queue nobody polls, CONCURRENCY at a time.
    const startsCount = Math.min(COUNT, 2000);
    const startsBegan = performance.now();
    await runConcurrently(startsCount, CONCURRENCY, (i) =>
      gw.rt.temporal.workflow.start('webhookDeliveryWorkflow', {
        workflowId: `bench-start-${run}-${i}`,
        taskQueue: `bench-unpolled-${run}`,
        args: [{ deliveryId: `x${i}`, merchantIdentifier: m.merchantIdentifier, orderId: '' }],
      }),
    );
    const startsPerSecond = startsCount / ((performance.now() - startsBegan) / 1000);

    failNext = true;
    const ids = Array.from({ length: COUNT }, (_, i) => `bench:${run}:${i}`);
    const started = performance.now();
    await runConcurrently(COUNT, CONCURRENCY, (i) =>
      gw.rt.temporal.workflow.start('webhookDeliveryWorkflow', {
        workflowId: `webhook:${ids[i]}`,
        taskQueue: gw.rt.config.TEMPORAL_TASK_QUEUE,
        args: [
          {
            deliveryId: ids[i],
            merchantIdentifier: m.merchantIdentifier,
            orderId: '',
            late: [{ kind: 'txn', orderId: `b-${run}-${i}`, amountPaise: 1000, at: new Date().toISOString() }],
          },
        ],
      }),
    );
    const deadline = Date.now() + 30 * 60_000;
    while (ids.some((id) => !acked.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const seconds = (performance.now() - started) / 1000;
    const delivered = ids.filter((id) => acked.has(id)).length;
    const duplicates = ids.filter((id) => (acked.get(id) ?? 0) > 1).length;
    const retried = ids.filter((id) => (attempts.get(id) ?? 0) > 1).length;
    const perSecond = delivered / seconds;
    console.log(
      JSON.stringify({
        deliveries: COUNT,
        delivered,
        lost: COUNT - delivered,
        acknowledgedTwice: duplicates,
        retriedAfterA500: retried,
      }),
    );
    return (
      report([
        ratioRow(
          `webhook deliveries/s (${COUNT}, 20% first attempts fail)`,
          { label: `${round(perSecond)}/s, ${delivered} delivered, ${duplicates} duplicates`, value: perSecond },
          { label: `${round(loopPerSecond)}/s plain loop of the same POSTs`, value: loopPerSecond },
          { atLeast: 0.5 },
        ),
        ratioRow(
          'the same beside bare workflow starts (informative: the most one workflow per delivery allows here)',
          { label: `${round(perSecond)}/s delivered`, value: perSecond },
          { label: `${round(startsPerSecond)}/s workflow starts alone, unpolled queue`, value: startsPerSecond },
          { atLeast: 0 },
        ),
      ]) && delivered === COUNT
    );
  } finally {
    server.close();
    await stopGateways();
    await stopTestServers();
  }
}

runBench(main);
