/**
 * `npm run bench:ledger`: ledger and bulk pages against the real store, the API in its own process,
 * at two store sizes side by side.
 *
 * One store database holds LEDGER_BENCH_MERCHANT_TXNS (default 100,000) transactions of one
 * merchant and as many of another (200,000 stored); a second holds the first tenth of each (20,000
 * stored), the same documents. Each has its own API process. The merchant's first tenth are its
 * oldest, all on its first day, so the measured ledger page (page 1 of the ten days) and bulk page
 * (page 2 of the first day) hold the same records in both (checked). Every figure is the fastest of
 * ROUNDS, the two sizes measured in turn within each round, so that the load of a shared machine
 * weighs on both alike. Reported:
 * - each page at 200,000 stored beside 20,000 (target <= 1.5: the cost does not grow with the
 *   store, since the store answers them from an index; docs/contributors/store.md);
 * - each page through the API beside the raw driver reading the same documents with the same
 *   filter, sort, skip and limit and JSON.stringify-ing them (target >= 0.7);
 * - the ledger page beside the raw driver finding the same 10,000 documents by _id (the cost of
 *   reading them at all);
 * - a walk of 10 ledger pages at 200,000 stored, reading the API process's resident memory while
 *   each is served and after it (target: the highest of pages 6-10 / the highest of pages 1-5 <= 1.1,
 *   as a page streams from the cursor; page 10 / page 1 reported);
 * - the other reads the gateway makes (a reconciliation batch by txnId, the two sweeps) at both sizes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MongoClient, type Collection, type Document, type Filter, type Sort } from 'mongodb';
import { limitSettings } from '../src/config-schema-limits';
import { freePort } from '../src/devstack/process';
import { rateLimitsOf } from './support/work';
import type { Transaction } from '../src/domain/transaction';
import { orderKey, TransactionRepository } from '../src/store/transaction-repository';
import { startChaosStack, startGateway, type ChaosStack } from './chaos-stack';
import { DAY_MS, DAYS, FIRST_DAY, ledgerTransaction } from './support/ledger-docs';
import { round } from './support/load';
import { ratioRow, report, runBench, type BenchRow } from './support/report';

const PER_MERCHANT = Number(process.env.LEDGER_BENCH_MERCHANT_TXNS ?? 100_000);
const SMALL_PER_MERCHANT = Math.round(PER_MERCHANT / 10);
const PAGE = 10_000;
const BULK_PAGE = 500;
const ROUNDS = 4;
const OTHER_MERCHANT = 'f'.repeat(32);
const SUCCESS_STATES = [
  'Success',
  'PartialRefund',
  'Refund',
  'PartialChargeback',
  'Chargeback',
  'PartialChargebackReverted',
  'ChargebackReverted',
];

const say = (line: string) => console.log(`[bench:ledger] ${line}`);

/** Stores the merchant's transactions in the large store, and the first tenth in the small one too. */
async function seed(large: Collection<Document>, small: Collection<Document>, merchantIdentifier: string) {
  for (let i = 0; i < PER_MERCHANT; i += 2000) {
    const docs = Array.from({ length: Math.min(2000, PER_MERCHANT - i) }, (_, k) =>
      ledgerTransaction(merchantIdentifier, i + k, PER_MERCHANT),
    );
    await large.insertMany(docs as unknown as Document[], { ordered: false });
    const early = docs.filter((_, k) => i + k < SMALL_PER_MERCHANT);
    if (early.length > 0) await small.insertMany(early as unknown as Document[], { ordered: false });
  }
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sha = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
/** A filter on string _ids (the driver types _id as an ObjectId). */
const idIn = (ids: string[]) => ({ _id: { $in: ids } }) as unknown as Filter<Document>;
const ms = (v: number) => `${round(v, 0)} ms`;

type Merchant = { merchantIdentifier: string; apiKey: string };

/** One store size: its database, its API, and the requests measured against both. */
function storeSize(client: MongoClient, db: string, apiUrl: string, merchant: Merchant) {
  const coll = client.db(db).collection('transactions');
  const repo = new TransactionRepository(client.db(db), randomBytes(32).toString('hex'));
  const api = async (path: string, body: object) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': merchant.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };
  const raw = async (filter: Filter<Document>, sort: Sort, skip: number, limit: number) =>
    JSON.stringify(await coll.find(filter).sort(sort).skip(skip).limit(limit).toArray());
  const M = merchant.merchantIdentifier;

  // Ledger: the ten days, every status, as the route queries them. Bulk: the first day, page 2.
  const ledgerBody = (pageNumber: number) => ({
    startDateTime: '2026-01-01',
    endDateTime: '2026-01-10',
    status: 'ALL',
    pageSize: PAGE,
    pageNumber,
  });
  const ledgerFilter = {
    merchantIdentifier: M,
    createdAt: { $gte: new Date(FIRST_DAY), $lt: new Date(FIRST_DAY + DAYS * DAY_MS) },
    delayedSuccess: { $ne: true },
  };
  const bulkBody = { txnDate: '2026-01-01', status: 'success', pageSize: BULK_PAGE, pageNumber: 2 };
  const bulkFilter = {
    merchantIdentifier: M,
    successAt: { $gte: new Date(FIRST_DAY), $lt: new Date(FIRST_DAY + DAY_MS) },
    status: { $in: SUCCESS_STATES },
  };
  // The first page's documents, the merchant's oldest PAGE.
  const pageIds = Array.from({ length: PAGE }, (_, i) => orderKey({ merchantIdentifier: M, orderId: `bench-${i}` }));
  const sweepBefore = new Date(FIRST_DAY + DAYS * DAY_MS);

  return {
    db,
    coll,
    ledgerBody,
    api,
    /** Fingerprints of the measured pages' records (isNextPageAvailable differs between sizes). */
    async pages(): Promise<{ ledger: string; bulk: string }> {
      const ledger = (JSON.parse(await api('/api/v1/ledger', ledgerBody(1))) as { data: { transactions: unknown[] } }).data
        .transactions;
      if (ledger.length !== PAGE) throw new Error(`a ledger page held ${ledger.length}`);
      const bulk = (JSON.parse(await api('/api/v1/fetchtxn', bulkBody)) as { data: unknown[] }).data;
      if (bulk.length !== BULK_PAGE) throw new Error(`a bulk page held ${bulk.length}`);
      return { ledger: sha(ledger), bulk: sha(bulk) };
    },
    pageRuns: {
      ledgerApi: () => api('/api/v1/ledger', ledgerBody(1)),
      ledgerRaw: () => raw(ledgerFilter, { createdAt: 1, txnId: 1 }, 0, PAGE + 1),
      // In batches of 500, as a reconciliation reads: FerretDB checks $in against each document in
      // a loop, so one $in of 10,000 would cost more than reading the documents.
      ledgerById: async () => {
        for (let i = 0; i < PAGE; i += 500) JSON.stringify(await coll.find(idIn(pageIds.slice(i, i + 500))).toArray());
      },
      bulkApi: () => api('/api/v1/fetchtxn', bulkBody),
      bulkRaw: () => raw(bulkFilter, { successAt: 1, txnId: 1 }, BULK_PAGE, BULK_PAGE),
    },
    otherRuns: {
      txnIds: async () => {
        const some = await coll.find(idIn(pageIds.filter((_, i) => i % 20 === 0))).toArray();
        return timed(() => repo.findByTxnIds(some.map((d) => (d as unknown as Transaction).txnId)));
      },
      pendingSweep: () => timed(() => repo.findPendingSince(sweepBefore, 100)),
      refundSweep: () => timed(() => repo.findWithPendingRefundsSince(sweepBefore, 100)),
    },
  };
}

type Size = ReturnType<typeof storeSize>;
type PageRun = keyof Size['pageRuns'];
type OtherRun = keyof Size['otherRuns'];

/** A second API process on the same servers, reading database `db`. */
async function secondApi(stack: ChaosStack, db: string) {
  const port = await freePort();
  const small: ChaosStack = {
    ...stack,
    gatewayEnv: {
      ...stack.gatewayEnv,
      API_PORT: String(port),
      MONGODB_DB: db,
      TEMPORAL_TASK_QUEUE: `${stack.gatewayEnv.TEMPORAL_TASK_QUEUE}-small`,
    },
    apiUrl: `http://127.0.0.1:${port}`,
  };
  await startGateway(small, 2);
  return small.apiUrl;
}

async function main(): Promise<boolean> {
  // The gateway's own sweep once a day, not during the measurements.
  const stack = await startChaosStack({ bankTimeoutSeconds: 5, sweepIntervalSeconds: 86_400, sweepAgeSeconds: 60 }, say);
  const client = new MongoClient(stack.mongodbUri);
  try {
    const gateway = await startGateway(stack, 1);
    const created = await fetch(`${stack.apiUrl}/ops/v1/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.opsToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ledger bench' }),
    });
    const merchant = ((await created.json()) as { data: Merchant }).data;

    // The small store's database: the same merchant and key, its own API process.
    const smallDb = `${stack.mongodbDb}_small`;
    for (const name of ['merchants', 'api_keys']) {
      const docs = await client.db(stack.mongodbDb).collection(name).find().toArray();
      await client.db(smallDb).collection(name).insertMany(docs);
    }
    const smallApi = await secondApi(stack, smallDb);
    const large = storeSize(client, stack.mongodbDb, stack.apiUrl, merchant);
    const small = storeSize(client, smallDb, smallApi, merchant);

    const seeding = performance.now();
    await seed(large.coll, small.coll, merchant.merchantIdentifier);
    await seed(large.coll, small.coll, OTHER_MERCHANT);
    const stored = { large: await large.coll.countDocuments({}), small: await small.coll.countDocuments({}) };
    say(`stored ${stored.large} and ${stored.small} transactions in ${round((performance.now() - seeding) / 1000, 1)} s`);
    const [largePages, smallPages] = [await large.pages(), await small.pages()];
    if (largePages.ledger !== smallPages.ledger || largePages.bulk !== smallPages.bulk) {
      throw new Error('the measured pages differ between the two store sizes; the comparison would mean nothing');
    }

    // Rounds: each request at both sizes in turn (which goes first alternates); keep the fastest.
    const best = { large: {} as Record<PageRun, number>, small: {} as Record<PageRun, number> };
    const runs = Object.keys(large.pageRuns) as PageRun[];
    for (let r = 0; r < ROUNDS; r++) {
      for (const run of runs) {
        const order = r % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
        for (const size of order) {
          const t = await timed((size === 'large' ? large : small).pageRuns[run]);
          best[size][run] = Math.min(best[size][run] ?? Infinity, t);
        }
      }
      say(
        `round ${r + 1}: ${runs.map((k) => `${k} ${ms(best.small[k])} / ${ms(best.large[k])}`).join(', ')} (fastest so far, small / large)`,
      );
    }
    const other = { large: {} as Record<OtherRun, number>, small: {} as Record<OtherRun, number> };
    for (const run of Object.keys(large.otherRuns) as OtherRun[]) {
      // The fastest of ROUNDS each, the sizes in turn, as the pages.
      other.small[run] = Infinity;
      other.large[run] = Infinity;
      for (let r = 0; r < ROUNDS; r++) {
        other.small[run] = Math.min(other.small[run], await small.otherRuns[run]());
        other.large[run] = Math.min(other.large[run], await large.otherRuns[run]());
      }
      say(`${run}: ${ms(other.small[run])} (${stored.small} stored), ${ms(other.large[run])} (${stored.large} stored)`);
    }

    // Walk 10 pages at the large size: the resident memory of its API process while each page is
    // served (its peak, sampled every 50 ms) and after it. It rises by about 30 MB a page until a
    // major garbage collection takes it back, every 3 or 4 pages, so a single reading depends on
    // where in that cycle it falls: flat means the second half of the walk peaks no higher than the
    // first.
    const pid = gateway.api.pid!;
    const peak: number[] = [];
    const after: number[] = [];
    const pageMs: number[] = [];
    const walkStarted = performance.now();
    for (let page = 1; page <= 10; page++) {
      let max = rssMb(pid);
      const sampler = setInterval(() => (max = Math.max(max, rssMb(pid))), 50);
      const took = await timed(() => large.api('/api/v1/ledger', large.ledgerBody(page))).finally(() => clearInterval(sampler));
      pageMs.push(took);
      after.push(rssMb(pid));
      peak.push(Math.max(max, after.at(-1)!));
      say(
        `page ${page}: ${ms(took)}, API resident memory at most ${round(peak.at(-1)!, 0)} MB, ${round(after.at(-1)!, 0)} MB after`,
      );
    }
    const walkMs = performance.now() - walkStarted;

    const L = best.large;
    const S = best.small;
    const sizes = `${stored.large} / ${stored.small} stored`;
    // What each side does, from the API processes' settings (the stack's environment, production defaults for the rest).
    const env = stack.gatewayEnv;
    const apiProcess = `the gateway's API in its own process (log level ${env.LOG_LEVEL ?? 'info'}; rate limits ${rateLimitsOf(limitSettings.shape.RATE_LIMIT_PER_SECOND.parse(env.RATE_LIMIT_PER_SECOND))}), fastest of ${ROUNDS}`;
    const does: Record<string, string> = {
      ledger: `POST /api/v1/ledger, page 1 of ${PAGE} records (ten days), through ${apiProcess}`,
      bulk: `POST /api/v1/fetchtxn, page 2 of ${BULK_PAGE} (one day's successes), through ${apiProcess}`,
      txnIds: `the repository's findByTxnIds of 500 txnIds in the bench process, fastest of ${ROUNDS}`,
      pendingSweep: `the repository's findPendingSince (limit 100) in the bench process, 10 % of orders Pending, fastest of ${ROUNDS}`,
      refundSweep: `the repository's findWithPendingRefundsSince (limit 100) in the bench process, fastest of ${ROUNDS}`,
    };
    const bySize = (path: string, l: number, s: number, target: { atMost?: number }, what: string) =>
      ratioRow(
        `${path}, ${sizes}`,
        { label: `${ms(l)} (${stored.large} stored)`, value: l, work: `${does[what]}; ${stored.large} stored` },
        { label: `${ms(s)} (${stored.small} stored)`, value: s, work: `the same; ${stored.small} stored` },
        target,
      );
    const rawDriver = (what: string) => `the raw driver in the bench process: ${what}, then JSON.stringify; fastest of ${ROUNDS}`;
    const walk = `POST /api/v1/ledger pages 1 to 10 of a ${PAGE}-record walk, one after another, through ${apiProcess.replace(/, fastest of \d+$/, '')}, ${stored.large} stored`;
    const rows: BenchRow[] = [
      bySize(`ledger page of ${PAGE}`, L.ledgerApi, S.ledgerApi, { atMost: 1.5 }, 'ledger'),
      bySize(`bulk page of ${BULK_PAGE}`, L.bulkApi, S.bulkApi, { atMost: 1.5 }, 'bulk'),
      ratioRow(
        `ledger page of ${PAGE} through the API vs raw driver (${stored.large} stored)`,
        {
          label: `${round(PAGE / (L.ledgerApi / 1000), 0)} records/s (${ms(L.ledgerApi)})`,
          value: 1 / L.ledgerApi,
          work: does.ledger,
        },
        {
          label: `${round(PAGE / (L.ledgerRaw / 1000), 0)} records/s raw driver + JSON.stringify (${ms(L.ledgerRaw)})`,
          value: 1 / L.ledgerRaw,
          work: rawDriver(`the same filter, sort by createdAt and txnId, limit ${PAGE + 1}`),
        },
        { atLeast: 0.7 },
      ),
      ratioRow(
        `bulk page of ${BULK_PAGE} through the API vs raw driver (${stored.large} stored)`,
        { label: ms(L.bulkApi), value: 1 / L.bulkApi, work: does.bulk },
        {
          label: `${ms(L.bulkRaw)} raw driver + JSON.stringify`,
          value: 1 / L.bulkRaw,
          work: rawDriver(`the same filter, sort by successAt and txnId, skip ${BULK_PAGE}, limit ${BULK_PAGE}`),
        },
        { atLeast: 0.7 },
      ),
      ratioRow(
        `ledger page of ${PAGE} through the API vs its documents found by _id (${stored.large} stored)`,
        { label: ms(L.ledgerApi), value: 1 / L.ledgerApi, work: does.ledger },
        {
          label: `${ms(L.ledgerById)} raw driver, 20 finds of {_id: {$in: 500 ids}} + JSON.stringify`,
          value: 1 / L.ledgerById,
          work: rawDriver(`the page's ${PAGE} documents by _id, 20 finds of 500`),
        },
        {},
      ),
      // Page N+1 continues from where page N ended (a keyset), instead of reading the N pages before it.
      ratioRow(
        `ledger walk at ${stored.large} stored, page 10 / page 1`,
        {
          label: `${ms(pageMs[9]!)} (pages: ${pageMs.map((t) => round(t, 0)).join(', ')} ms)`,
          value: pageMs[9]!,
          work: `page 10 of the walk: ${walk}`,
        },
        { label: ms(pageMs[0]!), value: pageMs[0]!, work: `page 1 of the same walk` },
        { atMost: 1.5 },
      ),
      ratioRow(
        'API resident memory, highest serving pages 6-10 / pages 1-5',
        {
          label: `${round(Math.max(...peak.slice(5)), 0)} MB (walk ${round(walkMs / 1000, 1)} s)`,
          value: Math.max(...peak.slice(5)),
          work: `the API process's resident memory, sampled every 50 ms, while serving pages 6 to 10 of the walk: ${walk}`,
        },
        {
          label: `${round(Math.max(...peak.slice(0, 5)), 0)} MB`,
          value: Math.max(...peak.slice(0, 5)),
          work: 'the same while serving pages 1 to 5',
        },
        { atMost: 1.1 },
      ),
      ratioRow(
        'API resident memory after page 10 / page 1',
        {
          label: `${round(after[9]!, 0)} MB (after each: ${after.map((m) => round(m, 0)).join(', ')})`,
          value: after[9]!,
          work: `the API process's resident memory after page 10 of the walk: ${walk}`,
        },
        { label: `${round(after[0]!, 0)} MB`, value: after[0]!, work: 'the same after page 1' },
        {},
      ),
      bySize('reconciliation batch of 500 txnIds', other.large.txnIds, other.small.txnIds, {}, 'txnIds'),
      // 10 % of the orders Pending at both sizes: the sweep reads the 100 it takes from its queue's index.
      bySize(
        'pending-payment sweep (limit 100)',
        other.large.pendingSweep,
        other.small.pendingSweep,
        { atMost: 1.5 },
        'pendingSweep',
      ),
      bySize('pending-refund sweep (limit 100)', other.large.refundSweep, other.small.refundSweep, {}, 'refundSweep'),
    ];
    return report(rows);
  } finally {
    await client.close();
    await stack.stop();
  }
}

runBench(main);
