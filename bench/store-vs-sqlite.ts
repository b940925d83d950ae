/**
 * `npm run bench:store-sqlite`: what the embedded store costs per record of a ledger page against
 * SQLite itself reading the same rows by the same index: the physical limit of a store built on it.
 *
 * STORE_SQLITE_BENCH_TXNS (default 20,000) ledger-shaped transactions of one merchant go to the
 * embedded store (FerretDB on SQLite, patched: docs/contributors/store.md) with the gateway's
 * indexes, and to a SQLite database of its own (better-sqlite3, in memory) as one row each: the
 * document as JSON text beside its merchant, creation time and txnId, indexed as merchant_created
 * is. A page of 10,000 (the first of the ten days, by time then txnId) is read from each into
 * JavaScript objects: the driver's find().toArray(), and SQLite's rows with JSON.parse. The fastest
 * of 4 rounds each, in turn. Reported, with no target: the ratio is what a document store over
 * SQLite adds (FerretDB's decoding and re-checking of each document, the wire protocol, BSON).
 */
import Database from 'better-sqlite3';
import { MongoClient, type Document } from 'mongodb';
import { ensureTransactionIndexes } from '../src/store/mongo';
import { stopTestServers, testStore } from '../test/support/servers';
import { DAY_MS, DAYS, FIRST_DAY, ledgerTransaction } from './support/ledger-docs';
import { round } from './support/load';
import { ratioRow, report, runBench } from './support/report';

const COUNT = Number(process.env.STORE_SQLITE_BENCH_TXNS ?? 20_000);
const PAGE = 10_000;
const ROUNDS = 4;
const MERCHANT = 'a'.repeat(32);
const say = (line: string) => console.log(`[bench:store-sqlite] ${line}`);

async function timed(run: () => unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function main(): Promise<boolean> {
  const store = await testStore();
  const client = await new MongoClient(store.uri).connect();
  const sqlite = new Database(':memory:');
  try {
    const coll = client.db(`${store.dbName}_sqlite_bench`).collection('transactions');
    await coll.drop().catch(() => undefined);
    await ensureTransactionIndexes(coll);
    sqlite.exec(
      'CREATE TABLE transactions (id TEXT PRIMARY KEY, merchant TEXT, created INTEGER, txn TEXT, doc TEXT);' +
        'CREATE INDEX merchant_created ON transactions (merchant, created, txn);',
    );
    const insert = sqlite.prepare('INSERT INTO transactions VALUES (?, ?, ?, ?, ?)');
    const started = performance.now();
    for (let i = 0; i < COUNT; i += 2000) {
      const docs = Array.from({ length: Math.min(2000, COUNT - i) }, (_, k) => ledgerTransaction(MERCHANT, i + k, COUNT));
      await coll.insertMany(docs as unknown as Document[]);
      sqlite.transaction(() => {
        for (const d of docs) insert.run(d._id, d.merchantIdentifier, d.createdAt.getTime(), d.txnId, JSON.stringify(d));
      })();
    }
    say(`stored ${COUNT} in each in ${round((performance.now() - started) / 1000, 1)} s`);

    const from = new Date(FIRST_DAY);
    const until = new Date(FIRST_DAY + DAYS * DAY_MS);
    const select = sqlite.prepare(
      'SELECT doc FROM transactions WHERE merchant = ? AND created >= ? AND created < ? ORDER BY created, txn LIMIT ?',
    );
    const runs = {
      store: async () => {
        const page = await coll
          .find({ merchantIdentifier: MERCHANT, createdAt: { $gte: from, $lt: until } })
          .sort({ createdAt: 1, txnId: 1 })
          .limit(PAGE)
          .toArray();
        if (page.length !== PAGE) throw new Error(`the store's page held ${page.length}`);
      },
      sqlite: () => {
        const rows = select.all(MERCHANT, from.getTime(), until.getTime(), PAGE) as { doc: string }[];
        const page = rows.map((r) => JSON.parse(r.doc) as unknown);
        if (page.length !== PAGE) throw new Error(`SQLite's page held ${page.length}`);
      },
    };
    const best = { store: Infinity, sqlite: Infinity };
    for (let r = 0; r < ROUNDS; r++) {
      for (const which of r % 2 === 0 ? (['store', 'sqlite'] as const) : (['sqlite', 'store'] as const))
        best[which] = Math.min(best[which], await timed(runs[which]));
      say(`round ${r + 1}: store ${round(best.store, 0)} ms, SQLite ${round(best.sqlite, 0)} ms (fastest so far)`);
    }
    const perRecord = (ms: number) => `${round((ms * 1000) / PAGE, 1)} µs a record (${round(ms, 0)} ms)`;
    return report([
      ratioRow(
        `ledger page of ${PAGE}, ${COUNT} stored: embedded store vs SQLite by the same index`,
        {
          label: perRecord(best.store),
          value: 1 / best.store,
          work: `the raw driver's find of ${PAGE} of one merchant's ${COUNT} stored transactions by merchant and createdAt, sorted, through FerretDB (its SQLite) into JavaScript objects; fastest of ${ROUNDS}`,
        },
        {
          label: `${perRecord(best.sqlite)} better-sqlite3 + JSON.parse`,
          value: 1 / best.sqlite,
          work: `better-sqlite3 in the bench process (in memory) selecting the same ${PAGE} rows by an index of merchant, created, txn and JSON.parse-ing each; fastest of ${ROUNDS}`,
        },
        {},
      ),
    ]);
  } finally {
    sqlite.close();
    await client.close();
    await stopTestServers();
  }
}

runBench(main);
