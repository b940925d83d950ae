import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import { createSettlementActivities } from '../../activities/settlement-activities';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { DEFAULT_FEE_PLAN } from '../../src/domain/settlement-fees';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { PayoutAccountSeal } from '../../src/store/settlement-account-repository';
import { SettlementAttentionRepository } from '../../src/store/settlement-attention-repository';
import { SettlementClaimRepository } from '../../src/store/settlement-claim-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { SettlementSettingsRepository } from '../../src/store/settlement-settings-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import type { PayerDataCipher } from '../../src/domain/payer-data';
import { ensureIndexes } from '../../src/store/mongo';
import { storedPaidUpiOrder } from '../../test/support/stored-orders';

/**
 * The settlement benchmarks' stores: one merchant's (or several merchants') day of paid orders
 * captured on Monday 2026-11-02 IST, settling Tuesday 2026-11-03, among other merchants' orders,
 * in the stored form (payer data sealed), kept for a rerun with SETTLEMENT_BENCH_DIR.
 */
export const MASTER_KEY = 'b'.repeat(64);
export const SETTLEMENT_DATE = '2026-11-03';
export const CAPTURE_DAY = Date.parse('2026-11-01T18:30:00Z'); // Monday 2026-11-02 00:00 IST
export const say = (line: string) => console.log(`[bench:settlement] ${line}`);

/** Documents a seeding batch inserts at once (unordered): FerretDB writes each batch in one SQLite transaction. */
const SEED_BATCH = Number(process.env.SETTLEMENT_BENCH_BATCH ?? 10_000);

/** Paid UPI order `index` of `count` of `merchant`, captured through the IST day, in the stored form (payer data sealed). */
function storedOrder(cipher: PayerDataCipher, merchant: string, index: number, count: number) {
  const at = new Date(CAPTURE_DAY + Math.floor((index / count) * 86_000_000));
  const order = storedPaidUpiOrder(cipher, {
    merchantIdentifier: merchant,
    orderId: `day-${index}`,
    amountPaise: 900 + ((index * 7919) % 100_000),
    at,
    productDescription: 'Benchmark order',
  });
  if (index % REFUNDED_EVERY !== REFUNDED_EVERY - 1) return order;
  // One order in REFUNDED_EVERY is refunded in part the same day: an adjustment the settlement claims.
  const refundedAt = new Date(at.getTime() + 60_000);
  const refund = {
    merchantRefId: 'r1',
    amountPaise: 500,
    rrn: '1',
    status: 'SUCCESS',
    createdAt: refundedAt,
    completedAt: refundedAt,
  };
  return {
    ...order,
    status: 'PartialRefund',
    refunds: [refund],
    refundReservedPaise: 500,
    updatedAt: refundedAt,
    adjustedAt: refundedAt,
  };
}

/** One order in this many of a day is refunded in part (5 rupees) the same day. */
export const REFUNDED_EVERY = 100;

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
export async function seededStore(db: Db, cipher: PayerDataCipher, size: number, settled: [string, number][]): Promise<void> {
  const marker = await db.collection<SeedMarker>('bench_seed').findOne({ _id: 'seed' });
  const days = settled.map(([merchant, count]) => ({ merchant, count }));
  if (marker && marker.size === size && JSON.stringify(marker.days) === JSON.stringify(days)) {
    say(`${db.databaseName}: seeded by an earlier run (${size} orders), undoing its claims`);
    const started = performance.now();
    // Dropped and indexed again, not emptied: the embedded store deletes a collection's documents by
    // listing their ids in one statement, past SQLite's limit of variables for a large day's lines.
    for (const name of ['settlements', 'settlement_lines'])
      await db
        .collection(name)
        .drop()
        .catch(() => false);
    await ensureIndexes(db);
    for (const [merchant] of settled)
      await db
        .collection('transactions')
        .updateMany({ merchantIdentifier: merchant, saleSettlementId: { $exists: true } }, { $unset: { saleSettlementId: '' } });
    for (const [merchant] of settled)
      await db
        .collection('transactions')
        .updateMany(
          { merchantIdentifier: merchant, 'refunds.0.settlementId': { $exists: true } },
          { $unset: { 'refunds.0.settlementId': '' } },
        );
    say(`${db.databaseName}: claims undone in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return;
  }
  await db.dropDatabase();
  await ensureIndexes(db);
  const settledCount = settled.reduce((sum, [, n]) => sum + n, 0);
  await seedDays(db, cipher, [...settled, ...otherMerchants(size, settledCount)]);
  await db.collection<SeedMarker>('bench_seed').insertOne({ _id: 'seed', size, days });
}

/** The settlement activities on the bench's store: the sandbox bank pays, every merchant has an account. */
export function benchSettlementActivities(db: Db) {
  const transactions = new TransactionRepository(db, MASTER_KEY);
  return createSettlementActivities({
    settlementStore: new SettlementRepository(db),
    settlementAttention: new SettlementAttentionRepository(db),
    payoutAccountSeal: new PayoutAccountSeal(MASTER_KEY),
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
}
