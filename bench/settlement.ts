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
 * large one. Temporal adds a fixed cost per page and is left out. Reported:
 * - A at the large store beside A at the small one (target <= 1.5: flat in the store's size);
 * - B beside A, both in the large store (target <= 2.5: linear in the day's payments, 2 expected).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@temporalio/client';
import { MongoClient, type Db } from 'mongodb';
import { SandboxBankConnector } from '../src/bank/sandbox-connector';
import { createSettlementActivities } from '../activities/settlement-activities';
import { startFerretdb } from '../src/devstack/ferretdb';
import { freePort } from '../src/devstack/process';
import { newTxnId } from '../src/domain/identifiers';
import { PayerDataCipher } from '../src/domain/payer-data';
import { DEFAULT_FEE_PLAN } from '../src/domain/settlement-fees';
import type { Transaction } from '../src/domain/transaction';
import { MerchantRepository } from '../src/store/merchant-repository';
import { ensureIndexes } from '../src/store/mongo';
import { sealInstrument } from '../src/store/sealed-instrument';
import { SettlementClaimRepository } from '../src/store/settlement-claim-repository';
import { SettlementRepository } from '../src/store/settlement-repository';
import { SettlementSettingsRepository } from '../src/store/settlement-settings-repository';
import { orderKey, TransactionRepository } from '../src/store/transaction-repository';
import { ratioRow, report, runBench } from './support/report';

const N = Number(process.env.SETTLEMENT_BENCH_N ?? 10_000);
const SMALL = Number(process.env.SETTLEMENT_BENCH_SMALL ?? 20_000);
const LARGE = Number(process.env.SETTLEMENT_BENCH_LARGE ?? 200_000);
const MASTER_KEY = 'b'.repeat(64);
const SETTLEMENT_DATE = '2026-11-03';
const CAPTURE_DAY = Date.parse('2026-11-01T18:30:00Z'); // Monday 2026-11-02 00:00 IST
const say = (line: string) => console.log(`[bench:settlement] ${line}`);

/** `count` paid UPI orders of `merchant` captured through the IST day, stored as the repository stores them. */
async function seedDay(db: Db, cipher: PayerDataCipher, merchant: string, count: number): Promise<void> {
  const coll = db.collection('transactions');
  for (let done = 0; done < count;) {
    const n = Math.min(1000, count - done);
    const docs = Array.from({ length: n }, (_, i) => {
      const at = new Date(CAPTURE_DAY + Math.floor(((done + i) / count) * 86_000_000));
      const t: Transaction = {
        txnId: newTxnId(at),
        merchantIdentifier: merchant,
        orderId: `day-${done + i}`,
        amountPaise: 900 + (((done + i) * 7919) % 100_000),
        productDescription: 'Benchmark order',
        buyerName: null,
        buyerEmail: null,
        ipAddress: null,
        instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox Bank' },
        status: 'Success',
        responseCode: '100',
        responseDescription: 'The transaction was completed successfully.',
        bankRefNum: '123456789012',
        authCode: '123456',
        markedFailedByService: false,
        createdAt: at,
        updatedAt: at,
        completedAt: at,
        successAt: at,
        refunds: [],
        version: 2,
      };
      return { _id: orderKey(t), ...t, instrument: sealInstrument(cipher, t, t.instrument) };
    });
    await coll.insertMany(docs as never[], { ordered: false });
    done += n;
  }
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
    merchants: new MerchantRepository(db, MASTER_KEY),
    settlementCalendar: { days: 1, holidays: new Set() },
    defaultFeePlan: DEFAULT_FEE_PLAN,
    now: () => new Date(),
    temporal: undefined as unknown as Client, // the starter is not run here
    taskQueue: 'bench',
  });
  const input = { merchantIdentifier, settlementDate: SETTLEMENT_DATE };
  const started = performance.now();
  await act.openSettlement(input);
  let pages = 0;
  for (const phase of ['sales', 'adjustments'] as const) {
    let cursor = null;
    do {
      cursor = (await act.claimSettlementPage({ ...input, phase, cursor })).next;
      pages++;
    } while (cursor);
  }
  const totals = await act.totalSettlement(input);
  const answer = await act.requestSettlementPayout(input);
  const done = await act.recordSettlementPayout({ ...input, answer });
  const ms = performance.now() - started;
  say(`${merchantIdentifier}: ${pages} pages, net ${totals.netPaise} paise, ${done.state}, ${ms.toFixed(0)} ms`);
  return ms;
}

async function main(): Promise<boolean> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-settlement-'));
  const store = await startFerretdb({ port: await freePort(), dataDir: path.join(dir, 'data'), logDir: dir });
  const client = new MongoClient(store.uri);
  try {
    await client.connect();
    const cipher = new PayerDataCipher(MASTER_KEY);
    const merchantA = `a${randomBytes(8).toString('hex')}`;
    const merchantB = `b${randomBytes(8).toString('hex')}`;
    const small = client.db(`bench_settlement_small_${process.pid}`);
    const large = client.db(`bench_settlement_large_${process.pid}`);
    for (const [db, size, merchants] of [
      [small, SMALL, [[merchantA, N]]],
      [
        large,
        LARGE,
        [
          [merchantA, N],
          [merchantB, 2 * N],
        ],
      ],
    ] as const) {
      await ensureIndexes(db);
      for (const [m, n] of merchants) await seedDay(db, cipher, m, n);
      const others = size - (await db.collection('transactions').countDocuments({}));
      say(`${db.databaseName}: ${others} other merchants' orders to seed`);
      for (let seeded = 0; seeded < others; seeded += 1000)
        await seedDay(db, cipher, `o${randomBytes(8).toString('hex')}`, Math.min(1000, others - seeded));
    }
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
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
