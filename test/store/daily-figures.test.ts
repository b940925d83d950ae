import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import {
  addFigures,
  figureChange,
  figureContribution,
  figureDay,
  NO_FIGURES,
  type FigureTotals,
} from '../../src/domain/daily-figures';
import { istStartOfDay } from '../../src/domain/ist-time';
import { PaymentResponse } from '../../src/domain/response-codes';
import type { PaymentOutcome, Transaction } from '../../src/domain/transaction';
import { DailyFiguresRepository } from '../../src/store/daily-figures-repository';
import { ensureIndexes } from '../../src/store/mongo';
import { orderKey, TransactionRepository, type NewTransaction } from '../../src/store/transaction-repository';
import { testStore } from '../support/servers';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-03-10T06:30:00Z'); // 12:00 IST
const TODAY = istStartOfDay(NOW);
const YESTERDAY = new Date(TODAY.getTime() - DAY_MS);

const outcome = (status: 'Success' | 'Failure'): PaymentOutcome => {
  const code = status === 'Success' ? PaymentResponse.success : PaymentResponse.declinedByBank;
  return {
    status,
    responseCode: code.code,
    responseDescription: code.description,
    bankRefNum: null,
    authCode: null,
    markedFailedByService: false,
  };
};

/**
 * The dashboard's daily figures against the real store: every write of the transaction repository
 * keeps them, a retried or concurrent write never counts twice, and a rebuild from the orders
 * agrees with them to the paisa (and repairs what a crash between a claim and its addition lost).
 */
describe('store: daily figures kept by the transaction writes, idempotent, equal to a rebuild', function () {
  this.timeout(60_000);
  let client: MongoClient;
  let db: Db;
  let txns: TransactionRepository;
  let figures: DailyFiguresRepository;
  let storeUri: string;
  const key = randomBytes(32).toString('hex');

  before(async () => {
    const store = await testStore();
    storeUri = store.uri;
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_figures_${randomBytes(3).toString('hex')}`);
    await ensureIndexes(db);
    txns = new TransactionRepository(db, key);
    figures = new DailyFiguresRepository(db);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  const merchant = () => randomBytes(16).toString('hex');
  let seq = 0;
  const order = (merchantIdentifier: string, createdAt: Date, amountPaise: number): NewTransaction => {
    seq++;
    return {
      txnId: `T${seq}${randomBytes(4).toString('hex')}`,
      merchantIdentifier,
      orderId: `fig-${seq}`,
      amountPaise,
      productDescription: 'figures',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' },
      createdAt,
    };
  };

  /** The merchant's figures as stored, of yesterday and today. */
  const stored = async (m: string) => figures.ofDays(m, [figureDay(YESTERDAY), figureDay(TODAY)]);

  /** What the merchant's orders contribute, summed from the orders themselves (the truth). */
  async function fromOrders(m: string): Promise<Map<string, FigureTotals>> {
    const all = await db.collection<Transaction>('transactions').find({ merchantIdentifier: m }).toArray();
    const totals = new Map<string, FigureTotals>();
    for (const t of all) {
      const day = figureDay(t.createdAt);
      totals.set(day, addFigures(totals.get(day) ?? NO_FIGURES, figureChange(null, figureContribution(t))!));
    }
    return totals;
  }

  /** A day of orders: created one at a time and as a batch, paid, failed, paid late, refunded, left pending. */
  async function aDayOfOrders(m: string) {
    const paid = order(m, TODAY, 12_345);
    const failed = order(m, TODAY, 5_001);
    const late = order(m, YESTERDAY, 99_999);
    const pending = order(m, TODAY, 7_777);
    const refunded = order(m, YESTERDAY, 2_503);
    for (const t of [paid, failed, late, pending]) assert.equal((await txns.createPending(t)).created, true);
    assert.deepEqual(await txns.createPendingMany([refunded, order(m, TODAY, 101)]), [true, true]);
    await txns.recordOutcome(paid, outcome('Success'), NOW);
    await txns.recordOutcome(failed, outcome('Failure'), NOW);
    await txns.recordOutcome(late, outcome('Failure'), NOW);
    await txns.recordOutcome(late, outcome('Success'), NOW, ['Failure']); // a delayed success
    await txns.recordOutcome(refunded, outcome('Success'), NOW);
    const r = (await txns.findByOrder(refunded))!;
    assert.ok(
      await txns.updateIfUnchanged(refunded, r.version, {
        set: { status: 'Refund' },
        pushRefund: { refundId: 'R1', amountPaise: 2_503, status: 'SUCCESS', requestedAt: NOW, updatedAt: NOW } as never,
      }),
    );
    return { paid, failed, late, pending };
  }

  it('counts each order into its IST day as its writes happen, to the paisa, equal to a rebuild', async () => {
    const m = merchant();
    await aDayOfOrders(m);
    const expected = new Map([
      [figureDay(YESTERDAY), { count: 2, succeeded: 2, failed: 0, volumePaise: 99_999 + 2_503 }],
      [figureDay(TODAY), { count: 4, succeeded: 1, failed: 1, volumePaise: 12_345 }],
    ]);
    assert.deepEqual(await stored(m), expected);
    assert.deepEqual(await fromOrders(m), expected);
    assert.deepEqual(await figures.rebuild(m, YESTERDAY, new Date(TODAY.getTime() + DAY_MS)), { days: 2, orders: 6 });
    assert.deepEqual(await stored(m), expected, 'the rebuild agrees');
  });

  it('a retried activity, a replayed create and concurrent writers of one outcome count once', async () => {
    const m = merchant();
    const { paid, failed } = await aDayOfOrders(m);
    const before = await stored(m);
    // The payment activity retried after it wrote (its result lost): the same calls again.
    assert.equal((await txns.recordOutcome(paid, outcome('Success'), NOW)).applied, false);
    assert.equal((await txns.recordOutcome(failed, outcome('Failure'), NOW)).applied, false);
    assert.equal((await txns.createPending(paid)).created, false);
    assert.deepEqual(await stored(m), before);
    // Eight workers racing to record one outcome.
    const raced = order(m, TODAY, 4_242);
    await txns.createPending(raced);
    const results = await Promise.all(Array.from({ length: 8 }, () => txns.recordOutcome(raced, outcome('Success'), NOW)));
    assert.equal(results.filter((r) => r.applied).length, 1);
    const today = (await stored(m)).get(figureDay(TODAY))!;
    assert.deepEqual(today, addFigures(before.get(figureDay(TODAY))!, { count: 1, succeeded: 1, failed: 0, volumePaise: 4_242 }));
    assert.deepEqual(await stored(m), await fromOrders(m));
    await figures.rebuild(m, YESTERDAY, new Date(TODAY.getTime() + DAY_MS));
    assert.deepEqual(await stored(m), await fromOrders(m), 'the rebuild after the retries agrees');
  });

  it('a crash after the outcome was written and before it was counted: the retried activity counts it', async () => {
    const m = merchant();
    const t = order(m, TODAY, 31_415);
    await txns.createPending(t);
    // What the first attempt left: the order paid (its write), nothing claimed or added after it.
    await db
      .collection('transactions')
      .updateOne(
        { _id: orderKey(t) as never },
        { $set: { status: 'Success', successAt: NOW, completedAt: NOW }, $inc: { version: 1 } },
      );
    assert.deepEqual(await stored(m), new Map([[figureDay(TODAY), { count: 1, succeeded: 0, failed: 0, volumePaise: 0 }]]));
    assert.equal((await txns.recordOutcome(t, outcome('Success'), NOW)).applied, false);
    assert.deepEqual(await stored(m), new Map([[figureDay(TODAY), { count: 1, succeeded: 1, failed: 0, volumePaise: 31_415 }]]));
    assert.equal((await txns.recordOutcome(t, outcome('Success'), NOW)).applied, false);
    assert.deepEqual(await stored(m), await fromOrders(m), 'and once only');
  });

  it('a crash between the claim and the addition under-counts that change; the rebuild repairs it, and a second one changes nothing', async () => {
    const m = merchant();
    await aDayOfOrders(m);
    const t = order(m, TODAY, 27_183);
    await txns.createPending(t);
    // The write and its claim done, the addition lost with the process.
    await db.collection('transactions').updateOne(
      { _id: orderKey(t) as never },
      {
        $set: {
          status: 'Success',
          successAt: NOW,
          completedAt: NOW,
          countedInFigures: { succeeded: 1, failed: 0, volumePaise: 27_183 },
        },
        $inc: { version: 1 },
      },
    );
    assert.equal((await txns.recordOutcome(t, outcome('Success'), NOW)).applied, false);
    const truth = await fromOrders(m);
    assert.notDeepEqual(await stored(m), truth, 'the lost addition is missing');
    assert.deepEqual(await figures.rebuild(m, YESTERDAY, new Date(TODAY.getTime() + DAY_MS)), { days: 2, orders: 7 });
    assert.deepEqual(await stored(m), truth);
    await figures.rebuild(m, YESTERDAY, new Date(TODAY.getTime() + DAY_MS));
    assert.deepEqual(await stored(m), truth);
    // Counting goes on from the rebuilt figures: a new order of the day adds to them once.
    const next = order(m, TODAY, 1_000);
    await txns.createPending(next);
    await txns.recordOutcome(next, outcome('Failure'), NOW);
    assert.deepEqual(await stored(m), await fromOrders(m));
  });

  it("a Pending order's outcome written with its amount known claims its figures in that write: one write of the order; a retry, racers and a wrong amount count once", async () => {
    const m = merchant();
    const watched = await new MongoClient(storeUri, { monitorCommands: true }).connect();
    try {
      const commands: string[] = [];
      watched.on('commandStarted', (e) => {
        const target = e.command[e.commandName] as unknown;
        if (target === 'transactions' || target === 'daily_figures') commands.push(`${e.commandName} ${target}`);
      });
      const payments = new TransactionRepository(watched.db(db.databaseName), key);
      const t = order(m, TODAY, 8_000);
      await payments.createPending(t);
      commands.length = 0;
      const first = await payments.recordOutcome(t, outcome('Success'), NOW, ['Pending'], { amountPaise: 8_000 });
      assert.equal(first.applied, true);
      assert.equal(first.transaction.status, 'Success');
      assert.deepEqual(commands, ['findAndModify transactions', 'update daily_figures'], 'the outcome, then its day');
      assert.deepEqual((await stored(m)).get(figureDay(TODAY)), { count: 1, succeeded: 1, failed: 0, volumePaise: 8_000 });
      // The activity retried after it wrote: nothing applied, nothing counted again.
      assert.equal(
        (await payments.recordOutcome(t, outcome('Success'), NOW, ['Pending'], { amountPaise: 8_000 })).applied,
        false,
      );
      // A retry that says so (mayBeRecorded) reads the order once and writes nothing.
      commands.length = 0;
      const retried = await payments.recordOutcome(t, outcome('Success'), NOW, ['Pending'], {
        amountPaise: 8_000,
        mayBeRecorded: true,
      });
      assert.deepEqual([retried.applied, retried.transaction.status], [false, 'Success']);
      assert.deepEqual(commands, ['find transactions'], 'one read, no refused write');
      // A retry whose first run never wrote: the read, then the write that claims the figures.
      const unwritten = order(m, TODAY, 1_500);
      await payments.createPending(unwritten);
      commands.length = 0;
      const late = await payments.recordOutcome(unwritten, outcome('Failure'), NOW, ['Pending'], {
        amountPaise: 1_500,
        mayBeRecorded: true,
      });
      assert.deepEqual([late.applied, late.transaction.status], [true, 'Failure']);
      assert.deepEqual(commands, ['find transactions', 'findAndModify transactions', 'update daily_figures']);
      // Eight workers racing to record one outcome.
      const raced = order(m, TODAY, 4_242);
      await payments.createPending(raced);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          payments.recordOutcome(raced, outcome('Failure'), NOW, ['Pending'], { amountPaise: 4_242 }),
        ),
      );
      assert.equal(results.filter((r) => r.applied).length, 1);
      // An amount that is not the order's: the write does not match, the plain write and count do.
      const other = order(m, YESTERDAY, 9_000);
      await payments.createPending(other);
      const wrong = await payments.recordOutcome(other, outcome('Success'), NOW, ['Pending'], { amountPaise: 1 });
      assert.equal(wrong.applied, true);
      assert.equal(wrong.transaction.amountPaise, 9_000);
      const truth = await fromOrders(m);
      assert.deepEqual(truth.get(figureDay(TODAY)), { count: 3, succeeded: 1, failed: 2, volumePaise: 8_000 });
      assert.deepEqual(truth.get(figureDay(YESTERDAY)), { count: 1, succeeded: 1, failed: 0, volumePaise: 9_000 });
      assert.deepEqual(await stored(m), truth);
    } finally {
      await watched.close();
    }
  });

  it('orders stored before daily figures existed are counted by rebuildAll, then kept by later writes', async () => {
    const m = merchant();
    const t = order(m, YESTERDAY, 55_555);
    const u = order(m, TODAY, 66_666);
    await txns.createPending(t);
    await txns.createPending(u);
    // As an earlier version stored them: no claim on the orders, no figures.
    await db.collection('transactions').updateMany({ merchantIdentifier: m }, { $unset: { countedInFigures: '' } });
    await db.collection('daily_figures').deleteMany({ merchantIdentifier: m });
    assert.ok((await figures.rebuildAll(NOW)) >= 2);
    assert.deepEqual(await stored(m), await fromOrders(m));
    await txns.recordOutcome(u, outcome('Success'), NOW);
    assert.deepEqual(
      (await stored(m)).get(figureDay(TODAY)),
      { count: 1, succeeded: 1, failed: 0, volumePaise: 66_666 },
      'counted once, not again as a new order',
    );
  });
});
