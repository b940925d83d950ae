import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { ensureIndexes } from '../../src/store/mongo';
import { SettlementAttentionRepository } from '../../src/store/settlement-attention-repository';
import { testStore } from '../support/servers';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-30T06:00:00Z');

/** The reads behind "needs attention" and the daily re-starts choose before they limit, on the real store. */
describe('store: the settlement attention reads filter and order before their limit', function () {
  this.timeout(60_000);
  let client: MongoClient;
  let db: Db;
  let repo: SettlementAttentionRepository;

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_attention_reads_${randomBytes(3).toString('hex')}`);
    await ensureIndexes(db);
    repo = new SettlementAttentionRepository(db);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  const settlement = (merchant: string, date: string, state: string, createdAt: Date, payoutRequestedAt?: Date) => ({
    _id: `settlement:${merchant}:${date}`,
    merchantIdentifier: merchant,
    settlementDate: date,
    state,
    lineCount: 0,
    grossPaise: 0,
    refundsPaise: 0,
    chargebacksPaise: 0,
    feePaise: 0,
    taxPaise: 0,
    carriedInPaise: 0,
    netPaise: 100,
    carriedOutPaise: 0,
    createdAt,
    ...(payoutRequestedAt ? { payoutRequestedAt } : {}),
  });

  it('a merchant held longer than the re-start limit still has its failed older settlement re-started', async () => {
    const m = `held${randomBytes(3).toString('hex')}`;
    const dateOf = (i: number) => new Date(Date.parse('2026-10-01') + i * DAY).toISOString().slice(0, 10);
    // 35 held days stored first, the merchant's unfinished open settlement of an earlier date after them.
    const held = Array.from({ length: 35 }, (_, i) => settlement(m, dateOf(i + 5), 'held', new Date(NOW)));
    await db.collection('settlements').insertMany(held as never[]);
    await db.collection('settlements').insertOne(settlement(m, dateOf(0), 'open', new Date(NOW)) as never);
    const found = await repo.unfinishedOf(m, dateOf(20), 31);
    assert.equal(found[0]?.settlementDate, dateOf(0), 'the oldest unfinished first');
    assert.equal(found[0]?.state, 'open');
    assert.equal(found.length, 17, 'every one up to the date, none after it');
    assert.ok(found.every((s, i) => i === 0 || s.settlementDate > found[i - 1]!.settlementDate));
  });

  it('a payout is judged late by when it was requested: old settlements released recently take no place', async () => {
    const m = `payout${randomBytes(3).toString('hex')}`;
    const before = new Date(NOW - DAY);
    // Created long ago, their payout requested a moment ago (not late), stored first.
    const recent = Array.from({ length: 5 }, (_, i) =>
      settlement(m, `2026-09-0${i + 1}`, 'payout_requested', new Date(NOW - 60 * DAY), new Date(NOW - 60_000)),
    );
    await db.collection('settlements').insertMany(recent as never[]);
    // Created later, but its payout has waited three days.
    const late = settlement(m, '2026-11-20', 'payout_requested', new Date(NOW - 10 * DAY), new Date(NOW - 3 * DAY));
    await db.collection('settlements').insertOne(late as never);
    const found = (await repo.inStateBefore('payout_requested', before, 3)).filter((s) => s.merchantIdentifier === m);
    assert.deepEqual(
      found.map((s) => s._id),
      [late._id],
    );
  });
});
