/**
 * `npm run bench:ledger`: ledger and bulk pages against the real store, the API in its own process.
 *
 * Stores LEDGER_BENCH_MERCHANT_TXNS (default 100,000) transactions of one merchant and as many of
 * other merchants, over ten IST days, then in one run:
 * - a 10,000-record ledger page through the API beside the raw driver reading the same documents
 *   (same filter, sort, skip and limit) and JSON.stringify-ing them (target ratio >= 0.7);
 * - a walk of 10 such pages, reading the API process's resident memory after each (it must not grow
 *   with the page count: the page streams from the cursor);
 * - a 500-record bulk page, API beside raw driver, same target;
 * - each figure per 10,000 stored documents, since the embedded store scans the collection for any
 *   filter other than _id (README, "What the embedded store does fast").
 */
import { readFileSync } from 'node:fs';
import { MongoClient, type Collection, type Document, type Filter, type Sort } from 'mongodb';
import { newTxnId } from '../src/domain/identifiers';
import type { PaymentInstrument } from '../src/domain/instrument';
import type { Transaction } from '../src/domain/transaction';
import { orderKey } from '../src/store/transaction-repository';
import { startChaosStack, startGateway } from './chaos-stack';
import { round } from './support/load';
import { ratioRow, report, runBench, type BenchRow } from './support/report';

const PER_MERCHANT = Number(process.env.LEDGER_BENCH_MERCHANT_TXNS ?? 100_000);
const DAYS = 10;
const FIRST_DAY = Date.UTC(2026, 0, 1) - 5.5 * 3_600_000; // 2026-01-01 00:00 IST
const DAY_MS = 86_400_000;
const PAGE = 10_000;
const BULK_PAGE = 500;
const TIMES = 2;

const say = (line: string) => console.log(`[bench:ledger] ${line}`);

const INSTRUMENTS: PaymentInstrument[] = [
  { kind: 'UPI', vpa: 'asha@okbank', bankName: 'HDFC Bank' },
  { kind: 'CARD', cardToken: '401200XXXXXX1112', cardId: 'c0ffee', brand: 'VISA', cardType: 'CREDIT', bankName: 'ICICI Bank' },
  { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' },
];

/** One stored transaction, i-th of its merchant: mostly successes, some with a refund. */
function transaction(merchantIdentifier: string, i: number): Transaction & { _id: string } {
  const createdAt = new Date(FIRST_DAY + Math.floor((i / PER_MERCHANT) * DAYS * DAY_MS));
  const status = i % 10 === 0 ? 'Failure' : i % 10 === 1 ? 'Pending' : i % 10 === 2 ? 'PartialRefund' : 'Success';
  const succeeded = status === 'Success' || status === 'PartialRefund';
  const successAt = succeeded ? new Date(createdAt.getTime() + 2_000) : null;
  const t: Transaction = {
    txnId: newTxnId(createdAt),
    merchantIdentifier,
    orderId: `bench-${i}`,
    amountPaise: 900 + ((i * 7919) % 1_000_000),
    productDescription: 'Benchmark order',
    buyerName: 'Asha Rao',
    buyerEmail: 'asha@example.in',
    ipAddress: '203.0.113.7',
    instrument: INSTRUMENTS[i % 3]!,
    status,
    responseCode: succeeded ? '100' : status === 'Failure' ? '1022' : '208',
    responseDescription: succeeded ? 'The transaction was completed successfully.' : 'Declined',
    bankRefNum: succeeded ? '123456789012' : null,
    authCode: succeeded ? '123456' : null,
    markedFailedByService: false,
    createdAt,
    updatedAt: successAt ?? createdAt,
    completedAt: status === 'Pending' ? null : (successAt ?? createdAt),
    successAt,
    refunds:
      status === 'PartialRefund'
        ? [{ merchantRefId: `r-${i}`, amountPaise: 500, rrn: '998877665544', status: 'SUCCESS', createdAt: successAt! }]
        : [],
    version: 2,
  };
  return { _id: orderKey(t), ...t };
}

async function seed(coll: Collection<Document>, merchantIdentifier: string, count: number) {
  for (let i = 0; i < count; i += 2000) {
    const docs = Array.from({ length: Math.min(2000, count - i) }, (_, k) => transaction(merchantIdentifier, i + k));
    await coll.insertMany(docs as unknown as Document[], { ordered: false });
  }
}

/** Milliseconds of the faster of TIMES runs (the least disturbed by the rest of the machine). */
async function fastest(run: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < TIMES; i++) {
    const started = performance.now();
    await run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function main(): Promise<boolean> {
  const stack = await startChaosStack({ bankTimeoutSeconds: 5, sweepIntervalSeconds: 300, sweepAgeSeconds: 60 }, say);
  const client = new MongoClient(stack.mongodbUri);
  try {
    const gateway = await startGateway(stack, 1);
    const created = await fetch(`${stack.apiUrl}/ops/v1/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.opsToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ledger bench' }),
    });
    const merchant = ((await created.json()) as { data: { merchantIdentifier: string; apiKey: string; secretKey: string } }).data;
    const coll = client.db(stack.mongodbDb).collection('transactions');
    const seeding = performance.now();
    await seed(coll, merchant.merchantIdentifier, PER_MERCHANT);
    await seed(coll, 'f'.repeat(32), PER_MERCHANT);
    const stored = await coll.countDocuments({});
    say(`stored ${stored} transactions in ${round((performance.now() - seeding) / 1000, 1)} s`);
    const per10k = (ms: number) => `${round(ms / (stored / 10_000), 1)} ms per 10,000 stored`;

    const api = async (path: string, body: object) => {
      const res = await fetch(`${stack.apiUrl}${path}`, {
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

    // Ledger: the ten days, every status, as the route queries them.
    const ledgerFilter = {
      merchantIdentifier: merchant.merchantIdentifier,
      createdAt: { $gte: new Date(FIRST_DAY), $lt: new Date(FIRST_DAY + DAYS * DAY_MS) },
      delayedSuccess: { $ne: true },
    };
    const ledgerBody = (pageNumber: number) => ({
      startDateTime: '2026-01-01',
      endDateTime: '2026-01-10',
      status: 'ALL',
      pageSize: PAGE,
      pageNumber,
    });
    const first = JSON.parse(await api('/api/v1/ledger', ledgerBody(1))) as { data: { transactions: unknown[] } };
    if (first.data.transactions.length !== PAGE) throw new Error(`a ledger page held ${first.data.transactions.length}`);
    const ledgerApiMs = await fastest(() => api('/api/v1/ledger', ledgerBody(1)));
    const ledgerRawMs = await fastest(() => raw(ledgerFilter, { createdAt: 1, txnId: 1 }, 0, PAGE + 1));

    const ledgerRow = ratioRow(
      `ledger page of ${PAGE} (${stored} stored)`,
      {
        label: `${round(PAGE / (ledgerApiMs / 1000), 0)} records/s (${round(ledgerApiMs, 0)} ms; ${per10k(ledgerApiMs)})`,
        value: 1 / ledgerApiMs,
      },
      {
        label: `${round(PAGE / (ledgerRawMs / 1000), 0)} records/s raw driver + JSON.stringify (${round(ledgerRawMs, 0)} ms; ${per10k(ledgerRawMs)})`,
        value: 1 / ledgerRawMs,
      },
      { atLeast: 0.7 },
    );
    say(`${ledgerRow.path}: ratio ${ledgerRow.ratio} (${ledgerRow.measured} vs ${ledgerRow.ceiling})`);

    // Walk 10 pages: resident memory of the API process after each.
    const pid = gateway.api.pid!;
    const rss: number[] = [];
    const walkStarted = performance.now();
    for (let page = 1; page <= 10; page++) {
      await api('/api/v1/ledger', ledgerBody(page));
      rss.push(rssMb(pid));
      say(
        `page ${page}: API resident memory ${round(rss.at(-1)!, 0)} MB, ${round((performance.now() - walkStarted) / 1000, 0)} s into the walk`,
      );
    }
    const walkMs = performance.now() - walkStarted;
    say(`API resident memory after pages 1..10 (MB): ${rss.map((r) => round(r, 0)).join(', ')}`);

    // Bulk: one day, 500 per page.
    const bulkFilter = {
      merchantIdentifier: merchant.merchantIdentifier,
      successAt: { $gte: new Date(FIRST_DAY + 4 * DAY_MS), $lt: new Date(FIRST_DAY + 5 * DAY_MS) },
      status: {
        $in: [
          'Success',
          'PartialRefund',
          'Refund',
          'PartialChargeback',
          'Chargeback',
          'PartialChargebackReverted',
          'ChargebackReverted',
        ],
      },
    };
    const bulkBody = { txnDate: '2026-01-05', status: 'success', pageSize: BULK_PAGE, pageNumber: 2 };
    const bulkApiMs = await fastest(() => api('/api/v1/fetchtxn', bulkBody));
    const bulkRawMs = await fastest(() => raw(bulkFilter, { successAt: 1, txnId: 1 }, BULK_PAGE, BULK_PAGE));

    const rows: BenchRow[] = [
      ledgerRow,
      ratioRow(
        'API resident memory, page 10 / page 1',
        { label: `${round(rss[9]!, 0)} MB after page 10 (walk ${round(walkMs / 1000, 1)} s)`, value: rss[9]! },
        { label: `${round(rss[0]!, 0)} MB after page 1`, value: rss[0]! },
        { atMost: 1.1 },
      ),
      ratioRow(
        `bulk page of ${BULK_PAGE} (${stored} stored)`,
        { label: `${round(bulkApiMs, 0)} ms (${per10k(bulkApiMs)})`, value: 1 / bulkApiMs },
        { label: `${round(bulkRawMs, 0)} ms raw driver + JSON.stringify (${per10k(bulkRawMs)})`, value: 1 / bulkRawMs },
        { atLeast: 0.7 },
      ),
    ];
    return report(rows);
  } finally {
    await client.close();
    await stack.stop();
  }
}

runBench(main);
