/**
 * `npm run bench:settlement`: settling one merchant's day of N payments against the real store
 * (FerretDB as the dev stack runs it), at two store sizes and two day sizes.
 *
 * Two databases: a small one (SETTLEMENT_BENCH_SMALL stored, default 20,000) and a large one
 * (SETTLEMENT_BENCH_LARGE, default 200,000), filled with other merchants' paid orders of the same
 * day, as the repository stores them (payer data sealed). Each holds merchant A with N paid orders
 * captured on Monday 2026-11-02 IST (SETTLEMENT_BENCH_N, default 10,000) and the large one also
 * merchant B with 2N. A settlement's store work (the activities the workflow runs: open, every
 * claim page, totals; the payout is the sandbox bank's) is timed for A in each store and B in the
 * large one. Temporal adds a fixed cost per page and is left out. Seeding inserts unordered
 * batches of SETTLEMENT_BENCH_BATCH (default 10,000) and prints its rate; with SETTLEMENT_BENCH_DIR
 * the stores are kept there and a rerun with the same sizes skips seeding (docs/contributors/benchmarks.md,
 * Settlements). Each settlement's time is printed by phase. Reported:
 * - A at the large store beside A at the small one (target <= 1.5: flat in the store's size);
 * - B beside A, both in the large store (target <= 2.5: linear in the day's payments, 2 expected).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@temporalio/client';
import { MongoClient, type Db } from 'mongodb';
import { SandboxBankConnector } from '../src/bank/sandbox-connector';
import { createSettlementActivities } from '../activities/settlement-activities';
import { PayoutAccountSeal } from '../src/store/settlement-account-repository';
import { startFerretdb } from '../src/devstack/ferretdb';
import { freePort } from '../src/devstack/process';
import { PayerDataCipher } from '../src/domain/payer-data';
import { DEFAULT_FEE_PLAN } from '../src/domain/settlement-fees';
import { MerchantRepository } from '../src/store/merchant-repository';
import { ensureIndexes } from '../src/store/mongo';
import { SettlementClaimRepository } from '../src/store/settlement-claim-repository';
import { SettlementRepository } from '../src/store/settlement-repository';
import { SettlementSettingsRepository } from '../src/store/settlement-settings-repository';
import { TransactionRepository } from '../src/store/transaction-repository';
import { ratioRow, report, runBench } from './support/report';
import { storedPaidUpiOrder } from '../test/support/stored-orders';

const N = Number(process.env.SETTLEMENT_BENCH_N ?? 10_000);
const SMALL = Number(process.env.SETTLEMENT_BENCH_SMALL ?? 20_000);
const LARGE = Number(process.env.SETTLEMENT_BENCH_LARGE ?? 200_000);
const MASTER_KEY = 'b'.repeat(64);
const SETTLEMENT_DATE = '2026-11-03';
const CAPTURE_DAY = Date.parse('2026-11-01T18:30:00Z'); // Monday 2026-11-02 00:00 IST
const say = (line: string) => console.log(`[bench:settlement] ${line}`);

/** Documents a seeding batch inserts at once (unordered): FerretDB writes each batch in one SQLite transaction. */
const SEED_BATCH = Number(process.env.SETTLEMENT_BENCH_BATCH ?? 10_000);

/** Paid UPI order `index` of `count` of `merchant`, captured through the IST day, in the stored form (payer data sealed). */
function storedOrder(cipher: PayerDataCipher, merchant: string, index: number, count: number) {
  const at = new Date(CAPTURE_DAY + Math.floor((index / count) * 86_000_000));
  return storedPaidUpiOrder(cipher, {
    merchantIdentifier: merchant,
    orderId: `day-${index}`,
    amountPaise: 900 + ((index * 7919) % 100_000),
    at,
    productDescription: 'Benchmark order',
  });
}

/** The day's orders of each merchant, in batches of SEED_BATCH, with progress and rate. */
async function seedDays(db: Db, cipher: PayerDataCipher, days: (readonly [string, number])[]): Promise<void> {
  const coll = db.collection('transactions');
  const total = days.reduce((sum, [, n]) => sum + n, 0);
  const started = performance.now();
  let done = 0;
  let reported = 0;
  let batch: ReturnType<typeof storedOrder>[] = [];
  let inserting = 0;
  const flush = async () => {
    const t0 = performance.now();
    await coll.insertMany(batch as never[], { ordered: false });
    inserting += performance.now() - t0;
    done += batch.length;
    batch = [];
    if (done - reported >= total / 20 || done === total) {
      reported = done;
      const rate = done / ((performance.now() - started) / 1000);
      const eta = (total - done) / rate;
      const share = (inserting / (performance.now() - started)) * 100;
      say(
        `${db.databaseName}: ${done}/${total} stored, ${rate.toFixed(0)} docs/s (${share.toFixed(0)} % waiting for the store), ${eta.toFixed(0)} s to go`,
      );
    }
  };
  for (const [merchant, count] of days)
    for (let i = 0; i < count; i++) {
      batch.push(storedOrder(cipher, merchant, i, count));
      if (batch.length === SEED_BATCH) await flush();
    }
  if (batch.length > 0) await flush();
}

/** Other merchants' days of 1,000 orders each, enough to bring the store to `size`. */
function otherMerchants(size: number, settled: number): [string, number][] {
  const days: [string, number][] = [];
  for (let left = size - settled; left > 0; left -= 1000) days.push([`o${randomBytes(8).toString('hex')}`, Math.min(1000, left)]);
  return days;
}

interface SeedMarker {
  _id: 'seed';
  size: number;
  days: { merchant: string; count: number }[]; // the store holds no nested arrays
}

/**
 * A store holding `size` orders, the settled merchants' days among them. With SETTLEMENT_BENCH_DIR the
 * store outlives the run: a marker written after the last batch lets a rerun with the same sizes skip
 * seeding; it then only undoes the previous run's claims (settlements, their lines, saleSettlementId).
 */
async function seededStore(db: Db, cipher: PayerDataCipher, size: number, settled: [string, number][]): Promise<void> {
  const marker = await db.collection<SeedMarker>('bench_seed').findOne({ _id: 'seed' });
  const days = settled.map(([merchant, count]) => ({ merchant, count }));
  if (marker && marker.size === size && JSON.stringify(marker.days) === JSON.stringify(days)) {
    say(`${db.databaseName}: seeded by an earlier run (${size} orders), undoing its claims`);
    const started = performance.now();
    await db.collection('settlements').deleteMany({});
    await db.collection('settlement_lines').deleteMany({});
    for (const [merchant] of settled)
      await db
        .collection('transactions')
        .updateMany({ merchantIdentifier: merchant, saleSettlementId: { $exists: true } }, { $unset: { saleSettlementId: '' } });
    say(`${db.databaseName}: claims undone in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return;
  }
  await db.dropDatabase();
  await ensureIndexes(db);
  const settledCount = settled.reduce((sum, [, n]) => sum + n, 0);
  await seedDays(db, cipher, [...settled, ...otherMerchants(size, settledCount)]);
  await db.collection<SeedMarker>('bench_seed').insertOne({ _id: 'seed', size, days });
}

/** The store work of one settlement, as the workflow sequences it; returns milliseconds. */
async function settle(db: Db, merchantIdentifier: string): Promise<number> {
  const transactions = new TransactionRepository(db, MASTER_KEY);
  const act = createSettlementActivities({
    settlementStore: new SettlementRepository(db),
    settlementClaims: new SettlementClaimRepository(db, transactions),
    settlementSettings: new SettlementSettingsRepository(db),
    payouts: new SandboxBankConnector(),
    settlementAccount: async () => ({ ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Bench' }),
    payoutAccountSeal: new PayoutAccountSeal(MASTER_KEY),
    merchants: new MerchantRepository(db, MASTER_KEY),
    settlementCalendar: { days: 1, holidays: new Set() },
    defaultFeePlan: DEFAULT_FEE_PLAN,
    now: () => new Date(),
    temporal: undefined as unknown as Client, // the starter is not run here
    taskQueue: 'bench',
  });
  const input = { merchantIdentifier, settlementDate: SETTLEMENT_DATE };
  const started = performance.now();
  const phases: string[] = [];
  const lap = (() => {
    let last = started;
    return (name: string) => {
      const now = performance.now();
      phases.push(`${name} ${(now - last).toFixed(0)}`);
      last = now;
    };
  })();
  await act.openSettlement(input);
  lap('open');
  let pages = 0;
  for (const phase of ['sales', 'adjustments'] as const) {
    let cursor = null;
    do {
      cursor = (await act.claimSettlementPage({ ...input, phase, cursor })).next;
      pages++;
    } while (cursor);
    lap(phase);
  }
  const totals = await act.totalSettlement(input);
  lap('totals');
  const answer = await act.requestSettlementPayout(input);
  const done = await act.recordSettlementPayout({ ...input, answer });
  lap('payout');
  const ms = performance.now() - started;
  say(
    `${merchantIdentifier}: ${pages} pages, net ${totals.netPaise} paise, ${done.state}, ${ms.toFixed(0)} ms (${phases.join(', ')} ms)`,
  );
  return ms;
}

async function main(): Promise<boolean> {
  // SETTLEMENT_BENCH_DIR keeps the seeded stores for the next run; otherwise a temporary directory.
  const kept = process.env.SETTLEMENT_BENCH_DIR;
  const dir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'bench-settlement-'));
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  const store = await startFerretdb({ port: await freePort(), dataDir: path.join(dir, 'data'), logDir: dir });
  const client = new MongoClient(store.uri);
  try {
    await client.connect();
    const cipher = new PayerDataCipher(MASTER_KEY);
    const merchantA = 'benchmerchanta';
    const merchantB = 'benchmerchantb';
    // One database per store size: on the embedded store each is its own SQLite file.
    const small = client.db('bench_settlement_small');
    const large = client.db('bench_settlement_large');
    const seedStarted = performance.now();
    await seededStore(small, cipher, SMALL, [[merchantA, N]]);
    await seededStore(large, cipher, LARGE, [
      [merchantA, N],
      [merchantB, 2 * N],
    ]);
    say(`stores ready in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
    const aSmall = await settle(small, merchantA);
    const aLarge = await settle(large, merchantA);
    const bLarge = await settle(large, merchantB);
    return report([
      ratioRow(
        `settling a day of ${N} payments: ${LARGE} stored vs ${SMALL}`,
        { label: `${aLarge.toFixed(0)} ms`, value: aLarge },
        { label: `${aSmall.toFixed(0)} ms`, value: aSmall },
        { atMost: 1.5 },
      ),
      ratioRow(
        `settling ${2 * N} payments vs ${N} (${LARGE} stored)`,
        { label: `${bLarge.toFixed(0)} ms`, value: bLarge },
        { label: `${aLarge.toFixed(0)} ms`, value: aLarge },
        { atMost: 2.5 },
      ),
    ]);
  } finally {
    await client.close();
    await store.process.stop();
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
