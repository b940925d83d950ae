/**
 * The status API beside its ceilings on the same stack and concurrency: a bare Koa JSON endpoint
 * (the HTTP layer alone), a raw driver `findOne` by `_id` loop (the store alone), and a bare Koa
 * endpoint doing the same `findOne` (the least a lookup over HTTP can do).
 *
 * The status API serves as in production: log level info (its lines written to a file, as to a
 * log collector) and the per-merchant rate limit at its production default, counting every
 * request. The requests are spread over MERCHANTS merchants, as production traffic is, so the
 * limit counts them all and refuses none at this machine's rates; a refusal would count as a failure.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
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
import { describeWork, rateLimitsOf } from './support/work';

/** Rounds of the status API against the bare Koa + findOne endpoint, in turn (the median is kept). */
const ROUNDS = 5;
/** Merchants the signed requests are spread over: at 50/s each, up to 2,400 requests a second pass the limit. */
const MERCHANTS = 48;

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
  const signed: ReturnType<typeof signedStatusRequests> = [];
  const keys: string[] = [];
  for (let m = 0; m < MERCHANTS; m++) {
    const merchant = await gw.newMerchant(`Bench status ${m}`);
    const orderIds = await seedPaidOrders(gw.rt.transactions, merchant.merchantIdentifier, Math.ceil(orders / MERCHANTS));
    signed.push(...signedStatusRequests(merchant, orderIds));
    keys.push(...orderIds.map((orderId) => orderKey({ merchantIdentifier: merchant.merchantIdentifier, orderId })));
  }
  // Merchant after merchant in turn, so each merchant's share of a second is the same.
  const perMerchant = Math.ceil(orders / MERCHANTS);
  const interleaved = Array.from(
    { length: signed.length },
    (_, i) => signed[(i % MERCHANTS) * perMerchant + Math.floor(i / MERCHANTS)]!,
  );
  const load = { connections: o.connections, seconds: o.seconds, requests: interleaved };

  const coll = gw.rt.store.db.collection<{ _id: string }>('transactions');
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
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'bench-status-log-'));
  const logFile = path.join(logDir, 'status-api.log');
  const [api, koaFind] = await Promise.all([
    startServerProcess(
      'gateway-api',
      {
        GATEWAY_ENV: 'test',
        MONGODB_URI: c.store.mongodbUri,
        MONGODB_DB: c.store.database,
        TEMPORAL_ADDRESS: c.temporal.address,
        TEMPORAL_TASK_QUEUE: c.temporal.taskQueue,
        MASTER_KEY: c.secrets.masterKey,
        OPS_TOKEN: c.secrets.opsToken,
        MERCHANT_CACHE_SECONDS: '30',
        // The log level, the per-merchant rate limit and the failed-authentication limits stay at
        // their production defaults: costs every request pays.
      },
      { stdoutFile: logFile },
    ),
    startServerProcess('bare-find', { uri: c.store.mongodbUri, dbName: c.store.database }),
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
    const linesBefore = logLines(logFile);
    for (let r = 0; r < ROUNDS; r++) {
      const statusFirst = r % 2 === 0;
      if (statusFirst) status.push(await measured(api, statusUrl, round_));
      baseline.push(await measured(koaFind, koaFind.url, round_));
      if (!statusFirst) status.push(await measured(api, statusUrl, round_));
    }
    const work = await sidesWork({ api, koaFind }, { status, baseline }, logLines(logFile) - linesBefore, o.connections);
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
          { label: `${round(statusRate)}/s (median), ${failures} failed`, value: failures ? 0 : statusRate, work: work.status },
          {
            label: `min(bare Koa ${round(koa.perSecond)}/s, findOne ${round(findOne.perSecond)}/s)`,
            value: ceiling,
            work: work.min,
          },
          { atLeast: 0.8 },
        ),
        // What the row above asks of HTTP here: a bare Koa endpoint doing only the findOne, against the
        // same ceiling (the driver loop has no HTTP at all, so no HTTP endpoint reaches 1).
        ratioRow(
          'bare Koa + findOne vs that ceiling (informative: the most an HTTP lookup reaches here)',
          { label: `bare Koa + findOne ${round(baseRate)}/s`, value: baseRate, work: work.koaFind },
          { label: 'the same min', value: ceiling, work: work.min },
          {},
        ),
        {
          ...ratioRow(
            'status API vs the least a lookup can do',
            { label: `${round(statusRate)}/s`, value: failures ? 0 : statusRate, work: work.status },
            { label: `bare Koa + findOne ${round(baseRate)}/s`, value: baseRate, work: work.koaFind },
            { atLeast: 0.9 },
          ),
          // The median of the rounds' paired ratios, not the ratio of the medians.
          ...pairedRatio(failures ? [0] : rates, 0.9),
        },
        {
          ...ratioRow(
            'CPU per request: bare Koa + findOne / status API',
            { label: `bare Koa + findOne ${round(baseCpu, 0)} µs`, value: baseCpu, work: work.koaFind },
            { label: `status API ${round(statusCpu, 0)} µs`, value: statusCpu, work: work.status },
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
    rmSync(logDir, { recursive: true, force: true });
  }
}

interface Measured {
  load: LoadResult;
  cpuUsPerRequest: number;
  /** Store commands the server sent during the load, by name. */
  commands: Record<string, number>;
}

async function measured(
  server: ServerProcess,
  url: string,
  plan: Omit<Parameters<typeof httpLoad>[0], 'url'>,
): Promise<Measured> {
  await server.startCommands();
  const before = await server.cpuMicros();
  const load = await httpLoad({ url, ...plan });
  const cpu = (await server.cpuMicros()) - before;
  const commands = await server.stopCommands();
  return { load, cpuUsPerRequest: cpu / Math.max(1, load.total ?? 0), commands };
}

const logLines = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;

/** What each side did per request, from its process's settings, its store commands and its log. */
async function sidesWork(
  s: { api: ServerProcess; koaFind: ServerProcess },
  m: { status: Measured[]; baseline: Measured[] },
  statusLogLines: number,
  connections: number,
): Promise<{ status: string; koaFind: string; koa: string; findOne: string; min: string }> {
  const sum = (ms: Measured[]) => {
    const byName: Record<string, number> = {};
    for (const x of ms) for (const [k, n] of Object.entries(x.commands)) byName[k] = (byName[k] ?? 0) + n;
    return { byName, operations: ms.reduce((n, x) => n + (x.load.total ?? 0), 0) };
  };
  const settings = await s.api.settings();
  const statusCommands = sum(m.status);
  const linesPerRequest = round(statusLogLines / Math.max(1, statusCommands.operations), 2);
  const koa =
    'a bare Koa endpoint in the bench process: reads the body, answers a constant record-sized JSON; no store, no checksum, no log, no limits';
  const findOne = `a driver findOne by _id loop in the bench process, ${connections} at a time; no HTTP`;
  return {
    status: describeWork({
      does: `signed status request (HMAC checksum) by autocannon, ${connections} connections, spread over ${MERCHANTS} merchants; the API in its own process as main/api.ts serves it (no worker), merchant cache ${settings.MERCHANT_CACHE_SECONDS} s`,
      storeCommands: statusCommands,
      logLevel: `${settings.LOG_LEVEL} (${linesPerRequest} lines per request, to a file)`,
      rateLimits: `${rateLimitsOf(Number(settings.RATE_LIMIT_PER_SECOND))}; failed authentications ${settings.AUTH_FAILURES_PER_ADDRESS_PER_MINUTE}/min per address, ${settings.AUTH_FAILURES_PER_MERCHANT_PER_MINUTE}/min per merchant`,
    }),
    koaFind: describeWork({
      does: `the same requests by autocannon; a bare Koa endpoint in its own process reads the body and answers the order's findOne by _id with the status projection; no checksum, no log, no limits`,
      storeCommands: sum(m.baseline),
    }),
    koa,
    findOne,
    min: `the lower of: ${koa}; ${findOne}`,
  };
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
