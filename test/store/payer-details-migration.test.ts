import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import type { Transaction } from '../../src/domain/transaction';
import type { Checkout } from '../../src/domain/checkout';
import { CheckoutRepository } from '../../src/store/checkout-repository';
import type { PaymentLink } from '../../src/domain/payment-link';
import { PaymentLinkRepository, type PlannedLinkEntry } from '../../src/store/payment-link-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { testStore } from '../support/servers';

describe('store: migrating buyer details, link mobiles and plans, checkout VPAs stored in clear (start-up, idempotent)', function () {
  let client: MongoClient;
  let db: Db;
  const masterKey = randomBytes(32).toString('hex');
  const merchantIdentifier = randomBytes(16).toString('hex');
  const at = new Date('2026-01-05T10:00:00Z');

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_payer_details_${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  const txn = (orderId: string, buyer: Pick<Transaction, 'buyerName' | 'buyerEmail' | 'ipAddress'>): Transaction => ({
    txnId: `T-${orderId}`,
    merchantIdentifier,
    orderId,
    amountPaise: 10_000,
    productDescription: 'Tea',
    ...buyer,
    instrument: { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' },
    status: 'Success',
    responseCode: '100',
    responseDescription: 'ok',
    bankRefNum: 'B1',
    authCode: 'A1',
    markedFailedByService: false,
    createdAt: at,
    updatedAt: at,
    completedAt: at,
    successAt: at,
    refunds: [],
    version: 4,
  });

  it('rewrites them into the sealed form; reads give the same before and after; concurrent runs rewrite each once; a second run changes nothing', async () => {
    const withBuyer = txn('o-buyer', { buyerName: 'Ravi Kumar', buyerEmail: 'ravi.k@example.in', ipAddress: '203.0.113.7' });
    const without = txn('o-none', { buyerName: null, buyerEmail: null, ipAddress: null });
    await db
      .collection('transactions')
      .insertMany([withBuyer, without].map((t) => ({ _id: `${merchantIdentifier}:${t.orderId}`, ...t })) as never);
    const link: PaymentLink = {
      _id: randomBytes(18).toString('base64url'),
      merchantIdentifier,
      orderId: 'pl-1',
      batchId: 'b-1',
      invoiceNumber: null,
      internalNotes: null,
      customerMobile: '9822001100',
      createdAt: at,
    };
    const noMobile: PaymentLink = { ...link, _id: randomBytes(18).toString('base64url'), orderId: 'pl-2', customerMobile: null };
    await db.collection('payment_links').insertMany([link, noMobile] as never);
    const entries: PlannedLinkEntry[] = [
      {
        order: { ...withBuyer, orderId: 'pl-1', buyerEmail: 'link.payer@example.in' },
        link,
        echo: { customerMobile: '9822001100' },
        qrImgSize: null,
      },
      { problem: 'amount: must be positive' },
    ];
    const batchId = `${merchantIdentifier}:b-1`;
    await db
      .collection('payment_link_batches')
      .insertOne({ _id: batchId, createdAt: at, requestHash: 'h1', plan: JSON.stringify(entries) } as never);
    const checkout: Checkout = {
      _id: randomBytes(24).toString('base64url'),
      merchantIdentifier,
      orderId: 'co-1',
      entry: 'V8',
      returnUrl: 'https://shop.example/return',
      paymentMode: 'UPI',
      bankid: 'collect.me@okbank',
      createdAt: at,
    };
    await db.collection('checkouts').insertOne(checkout as never);

    const transactions = new TransactionRepository(db, masterKey);
    const links = new PaymentLinkRepository(db, masterKey);
    const checkouts = new CheckoutRepository(db, masterKey);
    const reads = async () => ({
      txns: await Promise.all(['o-buyer', 'o-none'].map((orderId) => transactions.findByOrder({ merchantIdentifier, orderId }))),
      links: await Promise.all([link._id, noMobile._id].map((t) => links.findByToken(t))),
      listed: await links.createdBetween(merchantIdentifier, at, new Date(at.getTime() + 1), 10),
      batch: await links.claimBatch(merchantIdentifier, 'b-1', { requestHash: 'other', entries: [] }, at),
      checkout: await checkouts.findByToken(checkout._id),
    });
    const before = await reads();
    assert.deepEqual(before.txns, [withBuyer, without], 'clear documents are read as they are');
    assert.deepEqual(before.links, [link, noMobile]);
    assert.deepEqual(before.batch, {
      requestHash: 'h1',
      entries: JSON.parse(JSON.stringify(entries), (k, v: unknown) =>
        ['createdAt', 'payerDeadline'].includes(k) ? new Date(v as string) : v,
      ),
    });
    assert.deepEqual(before.checkout, checkout);

    // Two processes starting at once: each document is rewritten once.
    const runs = await Promise.all(
      [0, 1].map(() =>
        Promise.all([
          new TransactionRepository(db, masterKey).migrateBuyerDataAtRest(),
          new PaymentLinkRepository(db, masterKey).migratePayerDataAtRest(),
          new CheckoutRepository(db, masterKey).migratePayerDataAtRest(),
        ]),
      ),
    );
    assert.deepEqual(
      [0, 1, 2].map((i) => runs[0]![i]! + runs[1]![i]!),
      [2, 2, 1],
      'both orders, the link with a mobile and the batch, the checkout',
    );

    const texts = await Promise.all(
      ['transactions', 'payment_links', 'payment_link_batches', 'checkouts'].map(async (c) =>
        JSON.stringify(await db.collection(c).find({}).toArray()),
      ),
    );
    for (const clear of [
      'Ravi Kumar',
      'ravi.k@example.in',
      '203.0.113.7',
      'link.payer@example.in',
      '9822001100',
      'collect.me@okbank',
    ]) {
      assert.ok(
        texts.every((t) => !t.includes(clear)),
        `${clear} still in clear`,
      );
    }
    const rawTxn = await db.collection('transactions').findOne({ _id: `${merchantIdentifier}:o-buyer` as never });
    assert.match(String(rawTxn?.buyerSealed), /^pd1\./);
    assert.equal(rawTxn?.version, 4, 'the order itself did not change');

    assert.deepEqual(await reads(), before, 'reads answer the same after the migration');
    assert.deepEqual(
      await Promise.all([
        transactions.migrateBuyerDataAtRest(),
        links.migratePayerDataAtRest(),
        checkouts.migratePayerDataAtRest(),
      ]),
      [0, 0, 0],
      'nothing left to migrate',
    );
  });
});
