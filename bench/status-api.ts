/**
 * The status API beside its ceilings on the same stack and concurrency: a bare Koa JSON endpoint
 * (the HTTP layer alone), a raw driver `findOne` by `_id` loop (the store alone), and a bare Koa
 * endpoint doing the same `findOne` (the least a lookup over HTTP can do).
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Koa from 'koa';
import getRawBody from 'raw-body';
import { orderKey } from '../src/store/transaction-repository';
import type { TestGateway } from '../test/support/gateway';
import { summariseCpuProfile, type ProfileSummary } from './support/cpu-profile';
import { httpLoad, loopLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';
import { seedPaidOrders, signedStatusRequests } from './support/seed';
import { startServerProcess, type ServerProcess } from './support/server-process';

/** Rounds of the status API against the bare Koa + findOne endpoint, in turn (the median is kept). */
const ROUNDS = 5;

export interface StatusBench {
  rows: BenchRow[];
  details: Record<string, LoadResult>;
  /** With `cpuProfileDir`: where each side's CPU went during the rounds. */
  profiles?: Record<'status API' | 'bare Koa + findOne', ProfileSummary>;
}

export async function benchStatusApi(
  gw: TestGateway,
  o: { connections: number; seconds: number; cpuProfileDir?: string },
  orders = 200,
): Promise<StatusBench> {
  const merchant = await gw.newMerchant('Bench status');
  const orderIds = await seedPaidOrders(gw.rt.transactions, merchant.merchantIdentifier, orders);
  const signed = signedStatusRequests(merchant, orderIds);
  const load = { connections: o.connections, seconds: o.seconds, requests: signed };

  const coll = gw.rt.store.db.collection<{ _id: string }>('transactions');
  const keys = orderIds.map((orderId) => orderKey({ merchantIdentifier: merchant.merchantIdentifier, orderId }));
  const bare = await bareKoaJsonServer();
  let koa: LoadResult;
  let findOne: LoadResult;
  try {
    koa = await httpLoad({ url: bare.url, ...load });
    findOne = await loopLoad((i) => coll.findOne({ _id: keys[i % keys.length]! }), {
      concurrency: o.connections,
      seconds: o.seconds,
    });
  } finally {
    await bare.close();
  }

  // Each side in a process of its own (neither shares an event loop or a heap with the other, nor
  // with this one's worker), reading the same store through the same driver options.
  const c = gw.rt.config;
  const [api, koaFind] = await Promise.all([
    startServerProcess('gateway-api', {
      GATEWAY_ENV: 'test',
      MONGODB_URI: c.MONGODB_URI,
      MONGODB_DB: c.MONGODB_DB,
      TEMPORAL_ADDRESS: c.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: c.TEMPORAL_TASK_QUEUE,
      MASTER_KEY: c.MASTER_KEY,
      OPS_TOKEN: c.OPS_TOKEN,
      LOG_LEVEL: 'silent',
      MERCHANT_CACHE_SECONDS: '30',
      RATE_LIMIT_PER_SECOND: '0',
      // The failed-authentication limits stay at their production defaults: a cost every request pays.
    }),
    startServerProcess('bare-find', { uri: c.MONGODB_URI, dbName: c.MONGODB_DB }),
  ]);
  try {
    const statusUrl = `${api.url}/api/payments/v1/status`;
    // Warm both (JIT, connection pools, the merchant cache) before anything is measured.
    const warm = { ...load, seconds: 2 };
    await Promise.all([httpLoad({ url: statusUrl, ...warm }), httpLoad({ url: koaFind.url, ...warm })]);
    if (o.cpuProfileDir) await Promise.all([api.startProfile(), koaFind.startProfile()]);

    // Alternating rounds, each side's CPU per request read from its own process around its load.
    // On a shared machine a burst of someone else's load weighs on one round, so each round's
    // pair gives a ratio and the median of those is reported, with their spread.
    const round_ = { ...load, seconds: Math.max(2, o.seconds / 2) };
    const status: Measured[] = [];
    const baseline: Measured[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const statusFirst = r % 2 === 0;
      if (statusFirst) status.push(await measured(api, statusUrl, round_));
      baseline.push(await measured(koaFind, koaFind.url, round_));
      if (!statusFirst) status.push(await measured(api, statusUrl, round_));
    }
    const profiles = o.cpuProfileDir ? await profiled(o.cpuProfileDir, { api, koaFind }, { status, baseline }) : undefined;

    const rates = status.map((s, i) => s.load.perSecond / baseline[i]!.load.perSecond);
    const cpus = status.map((s, i) => baseline[i]!.cpuUsPerRequest / s.cpuUsPerRequest);
    const failures = status.reduce((n, s) => n + s.load.failures, 0);
    const statusRate = median(status.map((s) => s.load.perSecond));
    const baseRate = median(baseline.map((s) => s.load.perSecond));
    const statusCpu = median(status.map((s) => s.cpuUsPerRequest));
    const baseCpu = median(baseline.map((s) => s.cpuUsPerRequest));
    const ceiling = Math.min(koa.perSecond, findOne.perSecond);
    return {
      rows: [
        ratioRow(
          'status API requests/s',
          { label: `${round(statusRate)}/s (median), ${failures} failed`, value: failures ? 0 : statusRate },
          { label: `min(bare Koa ${round(koa.perSecond)}/s, findOne ${round(findOne.perSecond)}/s)`, value: ceiling },
          { atLeast: 0.8 },
        ),
        // What the row above asks of HTTP here: a bare Koa endpoint doing only the findOne, against the
        // same ceiling (the driver loop has no HTTP at all, so no HTTP endpoint reaches 1).
        ratioRow(
          'bare Koa + findOne vs that ceiling (informative: the most an HTTP lookup reaches here)',
          { label: `bare Koa + findOne ${round(baseRate)}/s`, value: baseRate },
          { label: 'the same min', value: ceiling },
          {},
        ),
        {
          ...ratioRow(
            'status API vs the least a lookup can do',
            { label: `${round(statusRate)}/s`, value: failures ? 0 : statusRate },
            { label: `bare Koa + findOne ${round(baseRate)}/s`, value: baseRate },
            { atLeast: 0.9 },
          ),
          // The median of the rounds' paired ratios, not the ratio of the medians.
          ...pairedRatio(failures ? [0] : rates, 0.9),
        },
        {
          ...ratioRow(
            'CPU per request: bare Koa + findOne / status API',
            { label: `bare Koa + findOne ${round(baseCpu, 0)} µs`, value: baseCpu },
            { label: `status API ${round(statusCpu, 0)} µs`, value: statusCpu },
            {},
          ),
          ...pairedRatio(cpus),
        },
      ],
      details: {
        'bare Koa JSON': koa,
        'driver findOne by _id': findOne,
        ...Object.fromEntries(status.map((s, i) => [`status API, round ${i + 1}`, s.load])),
        ...Object.fromEntries(baseline.map((s, i) => [`bare Koa + findOne, round ${i + 1}`, s.load])),
      },
      ...(profiles ? { profiles } : {}),
    };
  } finally {
    await Promise.all([api.stop(), koaFind.stop()]);
  }
}

interface Measured {
  load: LoadResult;
  cpuUsPerRequest: number;
}

async function measured(
  server: ServerProcess,
  url: string,
  plan: Omit<Parameters<typeof httpLoad>[0], 'url'>,
): Promise<Measured> {
  const before = await server.cpuMicros();
  const load = await httpLoad({ url, ...plan });
  const cpu = (await server.cpuMicros()) - before;
  return { load, cpuUsPerRequest: cpu / Math.max(1, load.total ?? 0) };
}

async function profiled(
  dir: string,
  s: { api: ServerProcess; koaFind: ServerProcess },
  m: { status: Measured[]; baseline: Measured[] },
): Promise<NonNullable<StatusBench['profiles']>> {
  mkdirSync(dir, { recursive: true });
  const files = { api: path.join(dir, 'status-api.cpuprofile'), koaFind: path.join(dir, 'bare-koa-findone.cpuprofile') };
  await Promise.all([s.api.stopProfile(files.api), s.koaFind.stopProfile(files.koaFind)]);
  // CPU per request over every round of a side: its profile's shares divide it.
  const cpu = (ms: Measured[]) =>
    ms.reduce((n, x) => n + x.cpuUsPerRequest * (x.load.total ?? 0), 0) / ms.reduce((n, x) => n + (x.load.total ?? 0), 0);
  return {
    'status API': summariseCpuProfile(files.api, cpu(m.status)),
    'bare Koa + findOne': summariseCpuProfile(files.koaFind, cpu(m.baseline)),
  };
}

/** The row's ratio as the median of the rounds' ratios, with their spread in the ceiling's label. */
function pairedRatio(ratios: number[], atLeast?: number): { ratio: number; met: boolean; spread: string } {
  const ratio = round(median(ratios), 3);
  return {
    ratio,
    met: atLeast === undefined || ratio >= atLeast,
    spread: `${round(Math.min(...ratios), 3)} to ${round(Math.max(...ratios), 3)} over ${ratios.length} rounds`,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The HTTP layer alone: reads the body and answers a record-sized JSON. */
async function bareKoaJsonServer(): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  const record = { status: true, message: { code: 100, text: 'Transaction completed successfully' }, data: { orders: [] } };
  app.use(async (ctx) => {
    await getRawBody(ctx.req, { limit: 65536, encoding: 'utf8' });
    ctx.body = record;
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
