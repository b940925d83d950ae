import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import type { Mandate } from '../../src/domain/mandate';
import { MandateRepository } from '../../src/store/mandate-repository';
import { OrderIdRepository } from '../../src/store/order-id-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { testStore } from '../support/servers';

/** The orderId namespace's arbiter: one claim per `<merchant>:<orderId>`, decided by the store's primary key. */
describe('store: one orderId namespace per merchant', function () {
  let client: MongoClient;
  let db: Db;
  const merchantIdentifier = randomBytes(16).toString('hex');
  const order = (orderId = `o-${randomBytes(4).toString('hex')}`) => ({ merchantIdentifier, orderId });
  const mandate = (orderId: string, txnId: string): Mandate => ({
    merchantIdentifier,
    orderId,
    txnId,
    mode: 'upiCollectMandate',
    state: 'ACTIVE',
    payerVpa: 'success@sandbox',
    maxAmountPaise: 1000,
    productDescription: 'x',
    frequency: 'Adhoc',
    validFrom: new Date(),
    validUntil: new Date(Date.now() + 86_400_000),
    firstDebit: false,
    firstDebitAmountPaise: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_order_ids_${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it('a mandate and an order racing for one orderId: exactly one may use it, each time', async () => {
    const ids = new OrderIdRepository(db);
    for (let i = 0; i < 20; i++) {
      const o = order();
      const [m, t] = await Promise.all([
        ids.claim(o, { holder: 'mandate', txnId: `M${i}` }),
        ids.claim(o, { holder: 'order', txnId: `T${i}` }),
      ]);
      assert.equal([m.mayUse, t.mayUse].filter(Boolean).length, 1, `round ${i}`);
    }
  });

  it('the same holder may use its orderId again (a repeat; its own collection decides), another holder never', async () => {
    const ids = new OrderIdRepository(db);
    const o = order();
    assert.deepEqual(await ids.claim(o, { holder: 'mandate', txnId: 'A' }), {
      mayUse: true,
      claim: { holder: 'mandate', txnId: 'A' },
    });
    // A retry keeps the first claim's txnId.
    assert.deepEqual(await ids.claim(o, { holder: 'mandate', txnId: 'B' }), {
      mayUse: true,
      claim: { holder: 'mandate', txnId: 'A' },
    });
    assert.equal((await ids.claim(o, { holder: 'order', txnId: 'C' })).mayUse, false);
  });

  it('a reservation is for its transaction alone, and is refused over an order that holds the orderId', async () => {
    const ids = new OrderIdRepository(db);
    const o = order();
    assert.equal((await ids.claim(o, { holder: 'order', txnId: 'F', reserved: true })).mayUse, true);
    assert.equal((await ids.claim(o, { holder: 'order', txnId: 'F', reserved: true })).mayUse, true, 'reserving again');
    assert.equal((await ids.claim(o, { holder: 'order', txnId: 'X' })).mayUse, false, 'another transaction');
    assert.equal((await ids.claim(o, { holder: 'order', txnId: 'F' })).mayUse, true, 'the reserved one');
    const held = order();
    await ids.claim(held, { holder: 'order', txnId: 'P' });
    assert.equal((await ids.claim(held, { holder: 'order', txnId: 'G', reserved: true })).mayUse, false);
  });

  it('claims the orderIds of mandates stored before claims existed, at start-up: their own and their first debit', async () => {
    const mandates = new MandateRepository(db, randomBytes(32).toString('hex'));
    const transactions = new TransactionRepository(db, randomBytes(32).toString('hex'));
    const legacy = { ...mandate(order().orderId, 'LEGACY1'), firstDebit: true, firstDebitAmountPaise: 100 };
    const current = { ...mandate(order().orderId, 'CURRENT1'), firstDebitOrderId: null };
    await db
      .collection('mandates')
      .insertMany([legacy, current].map((m) => ({ _id: `${merchantIdentifier}:${m.orderId}`, ...m })) as never);

    await Promise.all([mandates.backfillOrderIdClaims(), mandates.backfillOrderIdClaims()]);
    await mandates.backfillOrderIdClaims();
    const create = (orderId: string, txnId: string) =>
      transactions.createPending({
        txnId,
        merchantIdentifier,
        orderId,
        amountPaise: 1000,
        productDescription: 'x',
        buyerName: null,
        buyerEmail: null,
        ipAddress: null,
        instrument: { kind: 'UPI_QR' },
        createdAt: new Date(),
      });
    assert.deepEqual((await create(legacy.orderId, 'Q1')).heldBy, { holder: 'mandate', txnId: 'LEGACY1' });
    assert.deepEqual((await create(`${legacy.orderId}-first`, 'Q2')).heldBy, {
      holder: 'order',
      txnId: 'LEGACY1F',
      reserved: true,
    });
    assert.equal((await create(`${legacy.orderId}-first`, 'LEGACY1F')).created, true, 'the first debit itself');
    // Mandates stored since claimed theirs when created: the backfill does not read them.
    assert.equal(
      await db.collection('order_ids').countDocuments({ _id: `${merchantIdentifier}:${current.orderId}` as never }),
      0,
    );
  });

  it('claims a batch in one insert: each order may use its orderId unless another holder or a reservation has it', async () => {
    const ids = new OrderIdRepository(db);
    const [free, mine, mandate, reserved] = [order(), order(), order(), order()];
    await ids.claim(mine, { holder: 'order', txnId: 'old' });
    await ids.claim(mandate, { holder: 'mandate', txnId: 'M' });
    await ids.claim(reserved, { holder: 'order', txnId: 'F', reserved: true });
    const result = await ids.claimOrders([free, mine, mandate, reserved].map((o, i) => ({ ...o, txnId: `T${i}` })));
    assert.deepEqual(result, [true, true, false, false]);
  });
});
