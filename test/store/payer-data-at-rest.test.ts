import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db, type Document } from 'mongodb';
import { cardIdentifier, cardIdKey } from '../../src/domain/card';
import type { Mandate } from '../../src/domain/mandate';
import type { Transaction } from '../../src/domain/transaction';
import { MandateRepository } from '../../src/store/mandate-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { WebhookRepository } from '../../src/store/webhook-repository';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { deliveryResult } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { createData, istAt, transactU } from '../support/mandates';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver } from '../support/receiver';
import { testStore } from '../support/servers';

const VPA = 'success@sandbox';
const PAN = '4012001037141112';
const MASKED = '401200XXXXXX1112';

/** Every document of every collection that mentions the merchant, read with the plain driver. */
async function rawDocumentsOf(db: Db, merchantIdentifier: string): Promise<{ collection: string; text: string }[]> {
  const found: { collection: string; text: string }[] = [];
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      const text = JSON.stringify(doc);
      if (text.includes(merchantIdentifier)) found.push({ collection: name, text });
    }
  }
  return found;
}

describe('store: payer data at rest (VPAs, cards and webhook bodies sealed per merchant, field and document)', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let client: MongoClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const clock = istAt(new Date(), 1, '08:00:00');

  before(async () => {
    receiver = await startReceiver();
    gw = await startTestGateway({ SANDBOX_MANDATE_PAYER_SECONDS: '0.2', WEBHOOK_RETRY_SCHEDULE: '0' }, { now: () => clock });
    client = await new MongoClient((await testStore()).uri).connect();
  });
  after(async () => {
    await gw?.stop();
    await receiver?.close();
    await client?.close();
  });

  const raw = () => client.db(gw.rt.config.store.database);
  const status = async (m: MerchantCredentials, orderId: string) =>
    (await checkStatus(gw.baseUrl, m.secretKey, { merchantIdentifier: m.merchantIdentifier, orderId })).json.data.orders[0];

  /** A merchant whose webhooks reach the receiver (so bodies with payer data get stored). */
  async function newMerchant(name: string): Promise<MerchantCredentials> {
    const m = await gw.newMerchant(name);
    await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url });
    return m;
  }

  async function paidBy(m: MerchantCredentials, instrument: Record<string, string>): Promise<string> {
    const orderId = newOrderId('pd');
    await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, ...instrument });
    await paymentFinished(gw, m.merchantIdentifier, orderId);
    assert.equal((await deliveryResult(gw, `rt:${m.merchantIdentifier}:${orderId}`)).state, 'delivered');
    return orderId;
  }

  async function activeMandateWithFirstDebit(m: MerchantCredentials): Promise<{ orderId: string; mandate: Mandate }> {
    const orderId = newOrderId('mandate');
    const res = await transactU(
      gw.baseUrl,
      m,
      createData(m, { orderId, today: clock, firstDebit: true, firstDebitAmount: 1000 }),
    );
    assert.equal(res.json.responseCode, '1101', res.text);
    for (let i = 0; i < 200; i++) {
      const mandate = await gw.rt.mandates.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId });
      if (mandate?.state === 'ACTIVE' && mandate.firstDebitOrderId) {
        const debit = await gw.rt.transactions.findByOrder({
          merchantIdentifier: m.merchantIdentifier,
          orderId: mandate.firstDebitOrderId,
        });
        if (debit?.status === 'Success') return { orderId, mandate };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the mandate and its first debit never settled');
  }

  it('after a UPI payment, a card payment and a mandate with its debit, no raw document holds a VPA or card data in clear; the APIs answer as before', async () => {
    const m = await newMerchant('Sealed');
    const upi = await paidBy(m, { payerVpa: VPA });
    const card = await paidBy(m, { cardNumber: PAN });
    const { orderId: mandateOrderId, mandate } = await activeMandateWithFirstDebit(m);
    const cardId = cardIdentifier(PAN, cardIdKey(gw.rt.config.secrets.masterKey));

    const docs = await rawDocumentsOf(raw(), m.merchantIdentifier);
    for (const c of ['transactions', 'mandates', 'webhook_deliveries']) {
      assert.ok(
        docs.some((d) => d.collection === c),
        `${c} holds the merchant's documents`,
      );
    }
    for (const secret of [VPA, MASKED, PAN, cardId, PAN.slice(-4) + '"']) {
      const leaks = docs.filter((d) => d.text.toLowerCase().includes(secret.toLowerCase())).map((d) => d.collection);
      assert.deepEqual(leaks, [], `${secret} in clear`);
    }
    const sealedTxn = await raw()
      .collection('transactions')
      .findOne({ _id: `${m.merchantIdentifier}:${card}` as never });
    assert.match(sealedTxn?.instrument.sealed, /^pd1\./);
    assert.match(sealedTxn?.instrument.payerHash, /^[0-9a-f]{64}$/);
    assert.equal(sealedTxn?.instrument.brand, 'VISA', 'what is not payer data stays readable');

    // The repositories open it all again.
    assert.deepEqual(
      (await gw.rt.transactions.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId: upi }))?.instrument,
      { kind: 'UPI', vpa: VPA, bankName: 'Sandbox UPI Bank' },
    );
    assert.equal(mandate.payerVpa, VPA);
    const debit = await gw.rt.transactions.findByOrder({
      merchantIdentifier: m.merchantIdentifier,
      orderId: mandate.firstDebitOrderId!,
    });
    assert.equal(debit?.instrument.kind === 'UPI_MANDATE' && debit.instrument.vpa, VPA);

    // The status API shows what the contract says: the masked card and its id, the mandate as it is.
    const cardOrder = await status(m, card);
    assert.deepEqual(cardOrder.paymentInstrument.card, { cardToken: MASKED, cardId });
    assert.equal((await status(m, upi)).paymentInstrument.paymentMode, 'UPI');
    assert.equal((await status(m, mandateOrderId)).txnStatus, '0');
    // The merchant received the card in its webhook, and the stored bytes open to exactly those.
    const call = receiver.calls.find((c) => c.body.includes(card))!;
    assert.ok(call.body.includes(MASKED) && call.body.includes(cardId));
    const stored = await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(
      `rt:${m.merchantIdentifier}:${card}`,
    );
    assert.equal(stored?.body, call.body);
  });

  it('a sealed VPA copied into another merchant\u2019s or another document fails to open', async () => {
    const a = await newMerchant('A');
    const b = await newMerchant('B');
    const [a1, a2, b1] = [
      await paidBy(a, { payerVpa: VPA }),
      await paidBy(a, { payerVpa: VPA }),
      await paidBy(b, { payerVpa: VPA }),
    ];
    const txns = raw().collection<{ _id: string } & Document>('transactions');
    const sealedA1 = (await txns.findOne({ _id: `${a.merchantIdentifier}:${a1}` }))!.instrument.sealed as string;
    for (const [m, orderId] of [
      [a, a2],
      [b, b1],
    ] as const) {
      await txns.updateOne({ _id: `${m.merchantIdentifier}:${orderId}` }, { $set: { 'instrument.sealed': sealedA1 } });
      await assert.rejects(
        () => gw.rt.transactions.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId }),
        /unable to authenticate/,
      );
    }
    assert.equal(
      (await gw.rt.transactions.findByOrder({ merchantIdentifier: a.merchantIdentifier, orderId: a1 }))?.instrument.kind,
      'UPI',
      'the original still opens',
    );

    const { orderId: mandateA } = await activeMandateWithFirstDebit(a);
    const { orderId: mandateB } = await activeMandateWithFirstDebit(b);
    const mandates = raw().collection<{ _id: string } & Document>('mandates');
    const sealedVpa = (await mandates.findOne({ _id: `${a.merchantIdentifier}:${mandateA}` }))!.payerVpaSealed as string;
    await mandates.updateOne({ _id: `${b.merchantIdentifier}:${mandateB}` }, { $set: { payerVpaSealed: sealedVpa } });
    await assert.rejects(
      () => gw.rt.mandates.findByOrder({ merchantIdentifier: b.merchantIdentifier, orderId: mandateB }),
      /unable to authenticate/,
    );
  });
});

describe('store: migrating payer data stored in clear (start-up, idempotent)', function () {
  let client: MongoClient;
  let db: Db;
  const masterKey = randomBytes(32).toString('hex');
  const merchantIdentifier = randomBytes(16).toString('hex');
  const at = new Date('2026-01-05T10:00:00Z');

  before(async () => {
    const store = await testStore();
    client = await new MongoClient(store.uri).connect();
    db = client.db(`${store.dbName}_payer_data_${randomBytes(3).toString('hex')}`);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  const txn = (orderId: string, instrument: Transaction['instrument']): Transaction => ({
    txnId: `T-${orderId}`,
    merchantIdentifier,
    orderId,
    amountPaise: 10_000,
    productDescription: 'Tea',
    buyerName: null,
    buyerEmail: null,
    ipAddress: null,
    instrument,
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
    version: 3,
  });

  it('rewrites clear transactions, mandates and webhook bodies into the sealed form; reads give the same before and after; a second run changes nothing', async () => {
    const upi = txn('o-upi', { kind: 'UPI', vpa: 'asha@okbank', bankName: 'Bank', viaQr: true });
    const card = txn('o-card', {
      kind: 'CARD',
      cardToken: MASKED,
      cardId: 'c0ffee00c0ffee00c0ffee00c0ffee00',
      brand: 'VISA',
      cardType: 'CREDIT',
      bankName: 'HDFC Bank',
    });
    const netbanking = txn('o-nb', { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' });
    await db
      .collection('transactions')
      .insertMany([upi, card, netbanking].map((t) => ({ _id: `${merchantIdentifier}:${t.orderId}`, ...t })) as never);
    const mandate: Mandate = {
      merchantIdentifier,
      orderId: 'm-1',
      txnId: 'M1',
      mode: 'upiCollectMandate',
      state: 'ACTIVE',
      payerVpa: 'asha@okbank',
      maxAmountPaise: 50_000,
      productDescription: 'Milk',
      frequency: 'Adhoc',
      validFrom: at,
      validUntil: new Date(at.getTime() + 86_400_000),
      firstDebit: false,
      firstDebitAmountPaise: null,
      firstDebitOrderId: null,
      createdAt: at,
      updatedAt: at,
    };
    await db.collection('mandates').insertOne({ _id: `${merchantIdentifier}:m-1`, ...mandate } as never);
    const body = `txnData=${encodeURIComponent(JSON.stringify({ cardToken: MASKED }))}&checksum=00`;
    const delivery = {
      _id: `rt:${merchantIdentifier}:o-card`,
      merchantIdentifier,
      realtime: true,
      url: 'http://127.0.0.1:9/hooks',
      contentType: 'application/x-www-form-urlencoded',
      body,
      state: 'delivered' as const,
      attempts: [],
      createdAt: at,
    };
    await db.collection('webhook_deliveries').insertOne(delivery as never);

    const transactions = new TransactionRepository(db, masterKey);
    const mandates = new MandateRepository(db, masterKey);
    const webhooks = new WebhookRepository(db, masterKey);
    const reads = async () => ({
      txns: await Promise.all(
        ['o-upi', 'o-card', 'o-nb'].map((orderId) => transactions.findByOrder({ merchantIdentifier, orderId })),
      ),
      mandate: await mandates.findByOrder({ merchantIdentifier, orderId: 'm-1' }),
      delivery: await webhooks.find(delivery._id),
    });
    const before = await reads();
    assert.deepEqual(before.txns, [upi, card, netbanking], 'clear documents are read as they are');
    assert.deepEqual(before.mandate, mandate);
    assert.equal(before.delivery?.body, body);

    // Two processes starting at once: each document is rewritten once.
    const runs = await Promise.all([
      Promise.all([transactions.migratePayerDataAtRest(), mandates.migratePayerDataAtRest(), webhooks.migratePayerDataAtRest()]),
      Promise.all([
        new TransactionRepository(db, masterKey).migratePayerDataAtRest(),
        new MandateRepository(db, masterKey).migratePayerDataAtRest(),
        new WebhookRepository(db, masterKey).migratePayerDataAtRest(),
      ]),
    ]);
    assert.deepEqual(
      [0, 1, 2].map((i) => runs[0][i]! + runs[1][i]!),
      [2, 1, 1],
    );

    const texts = await Promise.all(
      ['transactions', 'mandates', 'webhook_deliveries'].map(async (c) =>
        JSON.stringify(await db.collection(c).find({}).toArray()),
      ),
    );
    for (const secret of [
      'asha@okbank',
      MASKED,
      'c0ffee00c0ffee00c0ffee00c0ffee00',
      encodeURIComponent(JSON.stringify({ cardToken: MASKED })),
    ]) {
      assert.ok(
        texts.every((t) => !t.includes(secret)),
        `${secret} still in clear`,
      );
    }
    const rawNb = await db.collection('transactions').findOne({ _id: `${merchantIdentifier}:o-nb` as never });
    assert.deepEqual(rawNb?.instrument, netbanking.instrument, 'no payer data: left as it was');
    const rawCard = await db.collection('transactions').findOne({ _id: `${merchantIdentifier}:o-card` as never });
    assert.equal(rawCard?.version, 3, 'the order itself did not change');

    assert.deepEqual(await reads(), before, 'reads answer the same after the migration');
    assert.deepEqual(
      await Promise.all([
        transactions.migratePayerDataAtRest(),
        mandates.migratePayerDataAtRest(),
        webhooks.migratePayerDataAtRest(),
      ]),
      [0, 0, 0],
      'nothing left to migrate',
    );
  });
});
