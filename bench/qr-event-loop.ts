/**
 * `npm run bench:qr`: the event loop while a payment link batch of 500 QR images at 1000 px renders
 * (one create call through the API; the images render in the worker pool), beside the same loop
 * idle in the same run (the ceiling: nothing but the bench's own status requests), and the status
 * API's latency beside it (one request at a time, throughout both phases). Event-loop delay is
 * perf_hooks.monitorEventLoopDelay's p99; `--main-thread` also times the same batch rendered on
 * the event loop itself (how it was before the pool), for scale: expect tens of seconds.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { renderQrPng } from '../src/domain/qr-png';
import { startTestGateway, stopGateways, type TestGateway } from '../test/support/gateway';
import { checkStatus } from '../test/support/http';
import { createLinks, linkEntry, newBatchId } from '../test/support/payment-links';
import { newOrderId, paymentFinished, sandboxPay } from '../test/support/payments';
import { stopTestServers } from '../test/support/servers';
import { round } from './support/load';
import { ratioRow, report, runBench, type BenchRow } from './support/report';

const IMAGES = 500;
const SIDE = 1000;

interface Phase {
  loopP99Ms: number;
  /** The longest the loop went without running a 5 ms timer (monitorEventLoopDelay misses one long block). */
  loopLongestStallMs: number;
  statusP50Ms: number;
  statusP99Ms: number;
  statusCalls: number;
  ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/** Runs `work` while measuring the loop and calling the status API one request at a time. */
async function measure(status: () => Promise<unknown>, work: () => Promise<unknown>): Promise<Phase> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const latencies: number[] = [];
  let done = false;
  const started = performance.now();
  let lastTick = started;
  let longestStall = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - lastTick - 5);
    lastTick = now;
  }, 5);
  loop.enable();
  const poller = (async () => {
    while (!done) {
      const t = performance.now();
      await status();
      latencies.push(performance.now() - t);
    }
  })();
  await work();
  done = true;
  await poller;
  await new Promise((r) => setTimeout(r, 20)); // the probe's tick after the last of the work
  clearInterval(probe);
  loop.disable();
  latencies.sort((a, b) => a - b);
  return {
    loopP99Ms: round(loop.percentile(99) / 1e6, 1),
    loopLongestStallMs: round(longestStall, 1),
    statusP50Ms: round(percentile(latencies, 50), 1),
    statusP99Ms: round(percentile(latencies, 99), 1),
    statusCalls: latencies.length,
    ms: round(performance.now() - started, 0),
  };
}

async function batchWorkflowsStarted(gw: TestGateway, merchantIdentifier: string, expected: number): Promise<void> {
  const query = `MerchantId = '${merchantIdentifier}'`;
  for (let i = 0; i < 300; i++) {
    if ((await gw.rt.temporal.workflow.count(query)).count >= expected) return;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error('the batch\u2019s payment workflows never all started');
}

async function main(): Promise<boolean> {
  const { values } = parseArgs({ options: { 'main-thread': { type: 'boolean', default: false } } });
  // The default budget refuses this batch (that is its point); the bench raises it to render one.
  const gw: TestGateway = await startTestGateway({ RATE_LIMIT_PER_SECOND: '0', QR_PIXEL_BUDGET: String(IMAGES * SIDE * SIDE) });
  try {
    const merchant = await gw.newMerchant('QR bench');
    const orderId = newOrderId('bench');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const status = async () => {
      const res = await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId });
      if (res.json?.data?.orders?.[0]?.txnStatus !== '0') throw new Error(`status API: ${res.text.slice(0, 200)}`);
    };
    const batch = async () => {
      const details = Array.from({ length: IMAGES }, () =>
        linkEntry({ showQrImg: true, qrImgSize: { width: SIDE, height: SIDE } }),
      );
      const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details });
      if (res.json?.statusCode !== 200) throw new Error(`batch refused: ${res.text.slice(0, 300)}`);
    };
    await measure(status, () => new Promise((r) => setTimeout(r, 2_000))); // warm-up: connections, code paths
    const idle = await measure(status, () => new Promise((r) => setTimeout(r, 10_000)));
    const pooled = await measure(status, batch);
    // The batch's workflows start after its answer: wait for them all before measuring or stopping.
    await batchWorkflowsStarted(gw, merchant.merchantIdentifier, IMAGES + 1);
    const onLoop = values['main-thread']
      ? await measure(status, async () => {
          for (let i = 0; i < IMAGES; i++) await renderQrPng(`https://gateway.example/pl/${i}`, SIDE, SIDE);
        })
      : null;
    console.log(JSON.stringify({ images: IMAGES, side: SIDE, idle, pooled, ...(onLoop ? { onLoop } : {}) }));

    const settings = `log level ${gw.rt.config.observability.logLevel}; rate limits ${gw.rt.config.limits.requestsPerSecond > 0 ? 'on' : 'off'}`;
    const statusProbe = 'signed status requests one at a time from the bench process, throughout';
    const pooledWork = `one POST /pl/api/v1/create of ${IMAGES} links with a ${SIDE} px QR image each, rendered in the worker pool, while ${statusProbe}; ${settings}`;
    const onLoopWork = `the same ${IMAGES} QR images rendered on the event loop, while ${statusProbe}; ${settings}`;
    const idleWork = `10 s of nothing but the ${statusProbe.replace(', throughout', '')}; ${settings}`;
    const rows: BenchRow[] = [
      ratioRow(
        `event-loop delay p99 while ${IMAGES} QR at ${SIDE} px render (pool)`,
        {
          label: `${pooled.loopP99Ms} ms (longest stall ${pooled.loopLongestStallMs} ms, batch ${pooled.ms} ms)`,
          value: pooled.loopP99Ms,
          work: pooledWork,
        },
        { label: `${idle.loopP99Ms} ms idle`, value: Math.max(idle.loopP99Ms, 1), work: idleWork },
        { atMost: 3 },
      ),
      ratioRow(
        'status API p99 beside the batch',
        {
          label: `${pooled.statusP99Ms} ms (p50 ${pooled.statusP50Ms} ms, ${pooled.statusCalls} calls)`,
          value: pooled.statusP99Ms,
          work: pooledWork,
        },
        {
          label: `${idle.statusP99Ms} ms idle (p50 ${idle.statusP50Ms} ms)`,
          value: Math.max(idle.statusP99Ms, 1),
          work: idleWork,
        },
        { atMost: 3 },
      ),
    ];
    if (onLoop) {
      // For scale, no target: rendered on the loop, the batch stalls it (and every request) throughout.
      rows.push(
        ratioRow(
          `longest event-loop stall, the same ${IMAGES} rendered on the loop (before the pool)`,
          { label: `${onLoop.loopLongestStallMs} ms`, value: onLoop.loopLongestStallMs, work: onLoopWork },
          { label: `${idle.loopLongestStallMs} ms idle`, value: Math.max(idle.loopLongestStallMs, 1), work: idleWork },
          {},
        ),
        ratioRow(
          `status API p99 beside it (${onLoop.statusCalls} calls in ${onLoop.ms} ms)`,
          { label: `${onLoop.statusP99Ms} ms`, value: onLoop.statusP99Ms, work: onLoopWork },
          { label: `${idle.statusP99Ms} ms idle`, value: Math.max(idle.statusP99Ms, 1), work: idleWork },
          {},
        ),
      );
    }
    return report(rows);
  } finally {
    await stopGateways();
    await stopTestServers();
  }
}

runBench(main);
