/**
 * `npm run bench:dashboard`: the dashboard's transaction search and overview over HTTP, at two store
 * sizes side by side in one run.
 *
 * Two databases of one FerretDB store (our patched build), each served by its own gateway app in
 * this process (the real routes, session middleware and pages; Temporal is never called by them):
 * - 20,000 stored: the measured merchant's 7,000 orders of the last 14 IST days, 3,000 older ones,
 *   and another merchant's 10,000;
 * - 200,000 stored: the same 7,000, 93,000 older ones, and the other merchant's 100,000.
 * The merchant's last 14 days are the same documents in both, so every measured page is the same
 * page (checked). Measured, each the fastest of ROUNDS with the two sizes in turn (which goes first
 * alternates, so a shared machine's load weighs on both alike):
 * - the search of today's successful orders, its first page and its 5th (followed by the keyset
 *   cursor of each page's "next" link);
 * - the search of 14 days by kind, first page;
 * - an orderId search (a primary-key read);
 * - the overview (the 14 days' daily figures by _id, the attention checks).
 * Target: each at 200,000 stored / at 20,000 <= 1.5: the cost follows the merchant's own volume in
 * the period asked, never the store's size.
 *
 * Then the overview of a third database where the same merchant has VOLUME orders in the same 14
 * days (`DASHBOARD_BENCH_VOLUME`, default 700,000) against the 7,000 of the 20,000 store: target
 * <= 1.5, the overview costs the same whatever the merchant's volume.
 *
 * Orders are seeded by bulk inserts in their stored form, each marked counted in its day's figures
 * as the repository's writes leave it, and the days' figures are written from the same orders by the
 * domain's contribution function. Checked: the 20,000 store's 14 days rebuilt from its orders
 * (DailyFiguresRepository.rebuild) give the same page, and the volume store's page counts VOLUME.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Document } from 'mongodb';
import { createApp } from '../src/api/app';
import { loadConfig } from '../src/config';
import { startFerretdb } from '../src/devstack/ferretdb';
import { freePort } from '../src/devstack/process';
import type { PaymentInstrument } from '../src/domain/instrument';
import {
  addFigures,
  figureChange,
  figureContribution,
  figureDay,
  NO_FIGURES,
  type FigureContribution,
  type FigureTotals,
} from '../src/domain/daily-figures';
import { formatIstDateTime, istStartOfDay } from '../src/domain/ist-time';
import type { Transaction } from '../src/domain/transaction';
import { createLogger } from '../src/logger';
import { apiDeps } from '../src/main/api-deps';
import type { Runtime } from '../src/main/runtime';
import { DashboardSessionRepository } from '../src/store/dashboard-session-repository';
import { DailyFiguresRepository, dailyFiguresDoc } from '../src/store/daily-figures-repository';
import { DashboardUserRepository } from '../src/store/dashboard-user-repository';
import { MandateRepository } from '../src/store/mandate-repository';
import { MerchantRepository } from '../src/store/merchant-repository';
import { connectStore, type Store } from '../src/store/mongo';
import { orderKey, TransactionRepository } from '../src/store/transaction-repository';
import { provisionMerchant } from '../src/usecases/provision-merchant';
import { round } from './support/load';
import { ratioRow, report, runBench, type BenchRow } from './support/report';

const say = (line: string) => console.log(`[bench:dashboard] ${line}`);
const DAY_MS = 86_400_000;
const NOW = new Date(Date.UTC(2026, 2, 15, 6, 30)); // 2026-03-15 12:00 IST
const TODAY = istStartOfDay(NOW).getTime();
const WINDOW_DAYS = 14;
const RECENT = 7_000; // the merchant's orders of the last 14 days, in both stores
const VOLUME = Number(process.env.DASHBOARD_BENCH_VOLUME ?? 700_000); // ... in the volume store
/** `DASHBOARD_BENCH_ONLY=overview`: only the volume row (no 200,000 store, no search rows). */
const ONLY_OVERVIEW = process.env.DASHBOARD_BENCH_ONLY === 'overview';
const HISTORY_DAYS = 365;
const ROUNDS = 5;
const MASTER_KEY = 'b'.repeat(64);
const OTHER_MERCHANT = 'e'.repeat(32);
const COOKIE_TOKEN = 'bench-session-token-0123456789abcdef';

const INSTRUMENTS: PaymentInstrument[] = [
  { kind: 'UPI', vpa: 'asha@okbank', bankName: 'HDFC Bank' },
  { kind: 'CARD', cardToken: '401200XXXXXX1112', cardId: 'c0ffee', brand: 'VISA', cardType: 'CREDIT', bankName: 'ICICI Bank' },
  { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' },
  { kind: 'UPI', vpa: 'ravi@okbank', bankName: 'Axis Bank', viaQr: true },
];

/** One stored order of `merchant` created at `createdAt`: mostly paid, some failed or pending. */
function transaction(
  merchantIdentifier: string,
  tag: string,
  i: number,
  createdAt: Date,
): Transaction & { _id: string; countedInFigures: FigureContribution } {
  const status = i % 10 === 0 ? 'Failure' : i % 10 === 1 ? 'Pending' : 'Success';
  const successAt = status === 'Success' ? new Date(createdAt.getTime() + 2_000) : null;
  const t: Transaction = {
    txnId: `${createdAt.getTime().toString(36).toUpperCase()}${tag}${String(i).padStart(7, '0')}`,
    merchantIdentifier,
    orderId: `${tag}-${i}`,
    amountPaise: 900 + ((i * 7919) % 1_000_000),
    productDescription: 'Benchmark order',
    buyerName: 'Asha Rao',
    buyerEmail: 'asha@example.in',
    ipAddress: '203.0.113.7',
    instrument: INSTRUMENTS[i % INSTRUMENTS.length]!,
    status,
    responseCode: status === 'Success' ? '100' : status === 'Failure' ? '1022' : '208',
    responseDescription: status === 'Success' ? 'The transaction was completed successfully.' : 'Declined',
    bankRefNum: successAt ? '123456789012' : null,
    authCode: successAt ? '123456' : null,
    markedFailedByService: false,
    createdAt,
    updatedAt: successAt ?? createdAt,
    completedAt: status === 'Pending' ? null : (successAt ?? createdAt),
    successAt,
    refunds: [],
    version: 2,
  };
  return { _id: orderKey(t), ...t, countedInFigures: figureContribution(t) };
}

/** `count` orders spread evenly over [from, until). */
function* spread(merchantIdentifier: string, tag: string, count: number, from: number, until: number) {
  for (let i = 0; i < count; i++)
    yield transaction(merchantIdentifier, tag, i, new Date(from + Math.floor(((until - from) * i) / count)));
}

const INSERT_BATCH = 2_000;
const PROGRESS_EVERY = 100_000;

/**
 * Inserts the orders, adding each to `figures` (per merchant and IST day) as the repository counts it.
 * One batch is in the store while the next is built, so the store never waits on this process; more
 * than one in flight made the embedded store slower (its SQLite takes one writer at a time).
 */
async function insertAll(store: Store, docs: Iterable<Transaction & { _id: string }>, figures: Map<string, FigureTotals>) {
  const coll = store.db.collection('transactions');
  const started = performance.now();
  let inserted = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  let batch: Document[] = [];
  const send = async () => {
    await inFlight;
    inserted += batch.length;
    if (inserted % PROGRESS_EVERY < batch.length)
      say(`  ${inserted} orders sent to the store, ${round((performance.now() - started) / inserted, 3)} ms an order so far`);
    inFlight = coll.insertMany(batch, { ordered: false });
    batch = [];
  };
  for (const d of docs) {
    const key = `${d.merchantIdentifier}|${figureDay(d.createdAt)}`;
    figures.set(key, addFigures(figures.get(key) ?? NO_FIGURES, figureChange(null, figureContribution(d))!));
    batch.push(d);
    if (batch.length === INSERT_BATCH) await send();
  }
  if (batch.length) await send();
  await inFlight;
}

async function insertFigures(store: Store, figures: Map<string, FigureTotals>) {
  const docs = [...figures].map(([key, totals]) => {
    const [merchantIdentifier, day] = key.split('|') as [string, string];
    return dailyFiguresDoc(merchantIdentifier, day, totals);
  });
  if (docs.length) await store.db.collection('daily_figures').insertMany(docs as Document[], { ordered: false });
}

interface Size {
  stored: number;
  store: Store;
  get(path: string): Promise<string>;
  close(): Promise<void>;
}

/** One store size: its database seeded, a signed-in owner, and the gateway's app listening. */
async function storeSize(
  uri: string,
  db: string,
  recent: number,
  older: number,
  others: number,
  merchantKeys: { merchantIdentifier?: string; secretKey?: string },
) {
  const config = loadConfig({
    GATEWAY_ENV: 'test',
    MONGODB_URI: uri,
    MONGODB_DB: db,
    TEMPORAL_ADDRESS: '127.0.0.1:1',
    MASTER_KEY,
    OPS_TOKEN: 'o'.repeat(32),
    LOG_LEVEL: 'silent',
  });
  const store = await connectStore(uri, db);
  const merchants = new MerchantRepository(store.db, MASTER_KEY, 0);
  const merchant = await provisionMerchant(merchants, { name: 'Dashboard bench', ...merchantKeys }, NOW);
  const M = merchant.merchantIdentifier;
  const windowFrom = TODAY - (WINDOW_DAYS - 1) * DAY_MS;
  const figures = new Map<string, FigureTotals>();
  await insertAll(store, spread(M, 'R', recent, windowFrom, NOW.getTime()), figures);
  await insertAll(store, spread(M, 'H', older, TODAY - HISTORY_DAYS * DAY_MS, windowFrom), figures);
  await insertAll(store, spread(OTHER_MERCHANT, 'O', others, TODAY - HISTORY_DAYS * DAY_MS, NOW.getTime()), figures);
  await insertFigures(store, figures);
  const email = 'owner@bench.example';
  await new DashboardUserRepository(store.db).create({
    email,
    merchantIdentifier: M,
    role: 'owner',
    passwordHash: 'unused',
    createdAt: NOW,
  });
  await new DashboardSessionRepository(store.db).create(COOKIE_TOKEN, {
    email,
    merchantIdentifier: M,
    csrfToken: 'bench-csrf-token',
    createdAt: NOW,
    expiresAt: new Date(NOW.getTime() + DAY_MS),
  });
  // The pages read the store only; a Temporal client that never connects stands in.
  const temporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
  const rt: Runtime = {
    config,
    logger: createLogger('silent'),
    store,
    merchants,
    transactions: new TransactionRepository(store.db, MASTER_KEY),
    mandates: new MandateRepository(store.db, MASTER_KEY),
    temporal,
    now: () => NOW,
    close: () => store.close(),
  };
  const server: Server = await new Promise((resolve) => {
    const s = createApp(apiDeps(rt)).listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const size: Size = {
    stored: recent + older + others, // as inserted (counting them would read the whole store)
    store,
    async get(p: string) {
      const res = await fetch(`${base}${p}`, { headers: { cookie: `gw_dashboard=${COOKIE_TOKEN}` }, redirect: 'manual' });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${p}: ${res.status} ${text.slice(0, 200)}`);
      return text;
    },
    async close() {
      await new Promise((r) => server.close(r));
      await store.close();
    },
  };
  return { size, merchant };
}

const windowFromMs = () => TODAY - (WINDOW_DAYS - 1) * DAY_MS;
const nextLink = (html: string) => /id="next-page" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
const ms = (v: number) => `${round(v, 1)} ms`;

async function main(): Promise<boolean> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-dashboard-'));
  const ferret = await startFerretdb({ port: await freePort(), dataDir: path.join(dir, 'data'), logDir: dir });
  const sizes: Size[] = [];
  try {
    const seeding = performance.now();
    const small = await storeSize(ferret.uri, 'dash_small', RECENT, 3_000, 10_000, {});
    const keys = { merchantIdentifier: small.merchant.merchantIdentifier, secretKey: small.merchant.secretKey };
    sizes.push(small.size);
    const large = ONLY_OVERVIEW ? null : await storeSize(ferret.uri, 'dash_large', RECENT, 93_000, 100_000, keys);
    if (large) sizes.push(large.size);
    say(
      `stored ${large?.size.stored ?? 0} and ${small.size.stored} transactions in ${round((performance.now() - seeding) / 1000, 1)} s`,
    );
    const seedingVolume = performance.now();
    const volume = await storeSize(ferret.uri, 'dash_volume', VOLUME, 0, 0, keys);
    sizes.push(volume.size);
    say(
      `stored the merchant's ${volume.size.stored} orders of 14 days in ${round((performance.now() - seedingVolume) / 1000, 1)} s`,
    );

    const today = formatIstDateTime(NOW).slice(0, 10);
    const windowFrom = formatIstDateTime(new Date(TODAY - (WINDOW_DAYS - 1) * DAY_MS)).slice(0, 10);
    const todaySuccess = `/dashboard/transactions?status=Success&from=${today}&to=${today}`;
    // The 5th page's address, by following the "next" links (the same cursor in both stores).
    let fifth = todaySuccess;
    for (let i = 1; i < 5; i++) fifth = nextLink(await small.size.get(fifth)) ?? fail('fewer than 5 pages today');
    const requests: Record<string, string> = {
      'search: today, Success, page 1': todaySuccess,
      'search: today, Success, page 5 (keyset cursor)': fifth,
      'search: 14 days, kind payment, page 1': `/dashboard/transactions?kind=payment&from=${windowFrom}&to=${today}`,
      'search: one orderId': '/dashboard/transactions?orderId=R-1234',
      'overview: 14 days': '/dashboard',
    };
    if (ONLY_OVERVIEW) for (const k of Object.keys(requests)) delete requests[k];
    for (const [name, p] of Object.entries(requests)) {
      if ((await small.size.get(p)) !== (await large!.size.get(p)))
        throw new Error(`${name}: the pages differ between the sizes`);
    }
    // The seeded figures are what a rebuild from the orders gives, and the volume store holds VOLUME.
    const seeded = await small.size.get('/dashboard');
    const rebuilding = performance.now();
    await new DailyFiguresRepository(small.size.store.db).rebuild(
      small.merchant.merchantIdentifier,
      new Date(windowFromMs()),
      new Date(TODAY + DAY_MS),
    );
    say(`rebuilt the 14 days of ${RECENT} orders from the orders in ${round(performance.now() - rebuilding, 0)} ms`);
    if ((await small.size.get('/dashboard')) !== seeded) throw new Error('the rebuilt figures differ from the seeded ones');
    const volumeCount = [
      ...(await volume.size.get('/dashboard')).matchAll(/<th scope="row">[^<]+<\/th><td>[^<]+<\/td><td>(\d+)<\/td>/g),
    ]
      .map((m) => Number(m[1]))
      .reduce((a, b) => a + b, 0);
    if (volumeCount !== VOLUME) throw new Error(`the volume store's overview counts ${volumeCount} orders, not ${VOLUME}`);

    const best = { small: {} as Record<string, number>, large: {} as Record<string, number> };
    for (let r = 0; large && r < ROUNDS; r++) {
      for (const [name, p] of Object.entries(requests)) {
        for (const which of r % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const)) {
          const started = performance.now();
          await (which === 'small' ? small : large).size.get(p);
          best[which][name] = Math.min(best[which][name] ?? Infinity, performance.now() - started);
        }
      }
      say(
        `round ${r + 1}: ${Object.keys(requests)
          .map((k) => `${k} ${ms(best.small[k]!)} / ${ms(best.large[k]!)}`)
          .join('; ')} (small / large)`,
      );
    }
    let volumeBest = Infinity;
    let smallOverview = Infinity;
    for (let r = 0; r < ROUNDS; r++) {
      for (const which of r % 2 === 0 ? (['small', 'volume'] as const) : (['volume', 'small'] as const)) {
        const started = performance.now();
        await (which === 'small' ? small : volume).size.get('/dashboard');
        const took = performance.now() - started;
        if (which === 'small') smallOverview = Math.min(smallOverview, took);
        else volumeBest = Math.min(volumeBest, took);
      }
    }
    say(`overview: ${ms(smallOverview)} with ${RECENT} orders in 14 days, ${ms(volumeBest)} with ${VOLUME}`);
    // Each store is served by a gateway app in this process, made with LOG_LEVEL silent (storeSize above).
    const served = (p: string, stored: number) =>
      `GET ${p} as the signed-in merchant, through a gateway app in the bench process (log level silent), ${stored} stored, fastest of ${ROUNDS}`;
    const rows: BenchRow[] = Object.keys(requests).map((name) =>
      ratioRow(
        `${name}, ${large!.size.stored} / ${small.size.stored} stored`,
        {
          label: `${ms(best.large[name]!)} (${large!.size.stored} stored)`,
          value: best.large[name]!,
          work: served(requests[name]!, large!.size.stored),
        },
        {
          label: `${ms(best.small[name]!)} (${small.size.stored} stored)`,
          value: best.small[name]!,
          work: served(requests[name]!, small.size.stored),
        },
        { atMost: 1.5 },
      ),
    );
    rows.push(
      ratioRow(
        `overview: ${VOLUME} / ${RECENT} orders of the merchant in 14 days`,
        {
          label: `${ms(volumeBest)} (${VOLUME} orders)`,
          value: volumeBest,
          work: `${served('/dashboard', volume.size.stored)}; the merchant's ${VOLUME} orders in the 14 days`,
        },
        {
          label: `${ms(smallOverview)} (${RECENT} orders)`,
          value: smallOverview,
          work: `${served('/dashboard', small.size.stored)}; the merchant's ${RECENT} orders in the 14 days`,
        },
        { atMost: 1.5 },
      ),
    );
    return report(rows);
  } finally {
    for (const s of sizes) await s.close().catch(() => undefined);
    await ferret.process.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function fail(message: string): never {
  throw new Error(message);
}

runBench(main);
