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
import { MongoClient, type Db } from 'mongodb';
import { startFerretdb } from '../src/devstack/ferretdb';
import { freePort } from '../src/devstack/process';
import { PayerDataCipher } from '../src/domain/payer-data';
import { ratioRow, report, runBench } from './support/report';
import { benchSettlementActivities, MASTER_KEY, say, seededStore, SETTLEMENT_DATE } from './support/settlement-store';
import { settleDay } from './settlement-day';

const N = Number(process.env.SETTLEMENT_BENCH_N ?? 10_000);
const SMALL = Number(process.env.SETTLEMENT_BENCH_SMALL ?? 20_000);
const LARGE = Number(process.env.SETTLEMENT_BENCH_LARGE ?? 200_000);
/** The store work of one settlement, as the workflow sequences it; returns milliseconds. */
async function settle(db: Db, merchantIdentifier: string): Promise<number> {
  const act = benchSettlementActivities(db);
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
  // The workflow's own payout step: the bench's merchants are never held.
  const payout = await act.requestSettlementPayoutUnlessHeld(input);
  if (payout.held) throw new Error(`${merchantIdentifier} is held: the bench times an unheld payout`);
  const done = await act.recordSettlementPayout({ ...input, answer: payout.answer });
  lap('payout');
  const ms = performance.now() - started;
  say(
    `${merchantIdentifier}: ${pages} pages, net ${totals.netPaise} paise, ${done.state}, ${ms.toFixed(0)} ms (${phases.join(', ')} ms)`,
  );
  return ms;
}

/** SETTLEMENT_BENCH_MODE=stores: the same day settled in a small and a large store, and twice the day. */
async function storesMain(): Promise<boolean> {
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
        {
          label: `${aLarge.toFixed(0)} ms`,
          value: aLarge,
          work: `the settlement activities' store work (open, claim pages, totals, sandbox payout) for merchant A's ${N} payments, ${LARGE} stored`,
        },
        { label: `${aSmall.toFixed(0)} ms`, value: aSmall, work: `the same for merchant A's ${N} payments, ${SMALL} stored` },
        { atMost: 1.5 },
      ),
      ratioRow(
        `settling ${2 * N} payments vs ${N} (${LARGE} stored)`,
        {
          label: `${bLarge.toFixed(0)} ms`,
          value: bLarge,
          work: `the settlement activities' store work for merchant B's ${2 * N} payments, ${LARGE} stored`,
        },
        { label: `${aLarge.toFixed(0)} ms`, value: aLarge, work: `the same for merchant A's ${N} payments, ${LARGE} stored` },
        { atMost: 2.5 },
      ),
    ]);
  } finally {
    await client.close();
    await store.process.stop();
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

runBench(() => (process.env.SETTLEMENT_BENCH_MODE === 'stores' ? storesMain() : settleDay()));
