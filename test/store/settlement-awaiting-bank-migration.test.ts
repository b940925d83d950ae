import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { backfillAwaitingBank } from '../../src/store/migrations/settlement-awaiting-bank';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { testStore } from '../support/servers';

/**
 * Payouts requested before the settlement recorded when the bank was first asked: the start-up
 * migration marks them awaiting the bank, so a hold can no longer move them back to held.
 */
describe('store: settlements requested before awaitingBankSince are marked awaiting the bank', function () {
  let client: MongoClient;
  let db: Db;

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_awaiting_${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it('sets payoutRequestedAt (else createdAt) on payout_requested settlements only; a hold then leaves them be', async () => {
    const created = new Date('2026-11-03T00:30:00Z');
    const requested = new Date('2026-11-03T01:00:00Z');
    const earlier = new Date('2026-11-03T00:45:00Z');
    const settlements = db.collection('settlements');
    await settlements.insertMany([
      { _id: 'requested' as never, state: 'payout_requested', createdAt: created, payoutRequestedAt: requested },
      { _id: 'old' as never, state: 'payout_requested', createdAt: created },
      { _id: 'asked' as never, state: 'payout_requested', createdAt: created, awaitingBankSince: earlier },
      { _id: 'open' as never, state: 'open', createdAt: created },
      { _id: 'paid' as never, state: 'paid', createdAt: created },
    ]);
    const repo = new SettlementRepository(db);
    assert.equal(await backfillAwaitingBank(db), 2);
    const since = async (id: string) => (await settlements.findOne({ _id: id as never }))?.awaitingBankSince as Date | undefined;
    assert.deepEqual(await since('requested'), requested);
    assert.deepEqual(await since('old'), created);
    assert.deepEqual(await since('asked'), earlier, 'an earlier mark stays');
    assert.equal(await since('open'), undefined);
    assert.equal(await since('paid'), undefined);
    assert.equal(await repo.returnToHeld('old'), false, 'the bank may have been asked: no return to held');
    assert.equal(await backfillAwaitingBank(db), 0, 'idempotent');
  });
});
