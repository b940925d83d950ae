import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { CheckoutRepository } from '../../src/store/checkout-repository';
import { PaymentLinkRepository } from '../../src/store/payment-link-repository';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { openPage, postTransactU, v8Data } from '../support/checkout';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { fetchTxn, ledger } from '../support/ledger';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { createLinks, linkEntry, newBatchId } from '../support/payment-links';
import { testStore } from '../support/servers';
import { formatIstDateTime } from '../../src/domain/ist-time';

/** Every document of every collection that mentions the merchant, as stored (the plain driver). */
async function rawDocumentsOf(
  db: Db,
  merchantIdentifier: string,
): Promise<{ collection: string; doc: Record<string, unknown> }[]> {
  const found: { collection: string; doc: Record<string, unknown> }[] = [];
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      if (JSON.stringify(doc).includes(merchantIdentifier)) found.push({ collection: name, doc });
    }
  }
  return found;
}

const BUYER_NAME = 'Asha Verma';
const BUYER_EMAIL = 'asha.verma@example.in';
const LINK_EMAIL = 'link.payer@example.in';
const LINK_MOBILE = '9812345678';
const COLLECT_VPA = 'collect.payer@sandbox';

describe('API: payer details at rest (buyer name, email and address, link mobiles and plans, checkout VPAs sealed)', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let client: MongoClient;
  before(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Sealed buyers'));
    client = await new MongoClient((await testStore()).uri).connect();
  });
  after(async () => {
    await client?.close();
  });

  it('stores none of them in clear, while the ledger, bulk, payment link and checkout answers still carry them', async () => {
    const m = merchant.merchantIdentifier;
    // A transaction with buyer data.
    const orderId = newOrderId('buyer');
    await sandboxPay(gw, {
      merchantIdentifier: m,
      orderId,
      buyerName: BUYER_NAME,
      buyerEmail: BUYER_EMAIL,
      payerVpa: 'success@sandbox',
    });
    await paymentFinished(gw, m, orderId);
    // A batch of payment links with a mobile and an email.
    const batch = { batchId: newBatchId(), details: [linkEntry({ customerMobile: LINK_MOBILE, customerEmail: LINK_EMAIL })] };
    const links = await createLinks(gw, merchant.apiKey, batch);
    assert.equal(links.json.statusCode, 200, links.text);
    assert.equal(links.json.data[0].customerMobile, LINK_MOBILE);
    // A hosted checkout for UPI collect, its VPA given by the merchant.
    const checkoutOrder = newOrderId('collect');
    const data = v8Data(merchant, checkoutOrder, {
      paymentInstrument: { paymentMode: 'UPI', netbanking: { bankid: COLLECT_VPA } },
    });
    const posted = await postTransactU(gw, merchant.secretKey, data, { browser: true });
    assert.equal(posted.status, 303, posted.text);

    const docs = await rawDocumentsOf(client.db(gw.rt.config.store.database), m);
    for (const c of ['transactions', 'payment_links', 'payment_link_batches', 'checkouts']) {
      assert.ok(
        docs.some((d) => d.collection === c),
        `${c} holds the merchant's documents`,
      );
    }
    for (const clear of [BUYER_NAME, BUYER_EMAIL, LINK_EMAIL, LINK_MOBILE, COLLECT_VPA]) {
      const leaks = docs
        .filter((d) => JSON.stringify(d.doc).toLowerCase().includes(clear.toLowerCase()))
        .map((d) => d.collection);
      assert.deepEqual(leaks, [], `${clear} in clear`);
    }
    const paid = docs.find((d) => d.collection === 'transactions' && d.doc._id === `${m}:${orderId}`)!.doc;
    assert.match(String(paid.buyerSealed), /^pd1\./);
    assert.deepEqual(
      ['buyerName', 'buyerEmail', 'ipAddress'].filter((k) => k in paid),
      [],
      'the address is sealed with the name and email',
    );
    const link = docs.find((d) => d.collection === 'payment_links')!.doc;
    assert.match(String(link.customerMobileSealed), /^pd1\./);
    const storedBatch = docs.find((d) => d.collection === 'payment_link_batches')!.doc;
    assert.match(String(storedBatch.planSealed), /^pd1\./);
    assert.equal(storedBatch.plan, undefined);
    const checkout = docs.find((d) => d.collection === 'checkouts')!.doc;
    assert.match(String(checkout.bankidSealed), /^pd1\./);

    // The answers carry the clear values, as before.
    const today = formatIstDateTime(new Date()).slice(0, 10);
    const ledgerRows = (await ledger(gw, merchant.apiKey, { startDateTime: today, endDateTime: today, status: 'ALL' })).json.data
      .transactions as { orderId: string; buyerName: string; buyerEmail: string }[];
    const row = ledgerRows.find((r) => r.orderId === orderId);
    assert.deepEqual([row?.buyerName, row?.buyerEmail], [BUYER_NAME, BUYER_EMAIL]);
    const linkRow = ledgerRows.find((r) => r.orderId === batch.details[0]!.orderId);
    assert.equal(linkRow?.buyerEmail, LINK_EMAIL);
    const t = await storedTransaction(gw, m, orderId);
    const bulk = await fetchTxn(gw, merchant.apiKey, {
      txnDate: formatIstDateTime(t!.successAt!).slice(0, 10),
      status: 'success',
    });
    const record = (bulk.json.data as { orderid: string; buyerName: string; buyerEmail: string; ipAddress: string }[]).find(
      (r) => r.orderid === orderId,
    );
    assert.deepEqual([record?.buyerName, record?.buyerEmail], [BUYER_NAME, BUYER_EMAIL]);
    assert.ok(record?.ipAddress, 'the payer address is answered');
    assert.equal(record?.ipAddress, t!.ipAddress);
    // The same batch again answers exactly as the first time (from the sealed plan).
    const again = await createLinks(gw, merchant.apiKey, batch);
    assert.equal(again.text, links.text);
    // The checkout page offers the VPA the merchant sent.
    const page = await openPage(gw, posted.location!);
    assert.equal(page.status, 200);
    assert.ok(page.html.includes(COLLECT_VPA), 'the page shows the collect VPA');
  });

  it('a store migrated for instruments before (marker v1 set) has its clear buyer details, link mobiles and checkout VPAs sealed at the next start', async () => {
    const { uri, dbName } = await testStore();
    const fresh = `${dbName}_upgrade_${randomBytes(3).toString('hex')}`;
    const db = client.db(fresh);
    const m = randomBytes(16).toString('hex');
    const at = new Date();
    await db.collection('migrations').insertOne({ _id: 'payer-data-at-rest-v1' as never, finishedAt: at });
    await db.collection('transactions').insertOne({
      _id: `${m}:old-1` as never,
      txnId: 'T-old-1',
      merchantIdentifier: m,
      orderId: 'old-1',
      amountPaise: 100,
      productDescription: 'Tea',
      buyerName: BUYER_NAME,
      buyerEmail: BUYER_EMAIL,
      ipAddress: '198.51.100.4',
      instrument: { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' },
      status: 'Failure',
      responseCode: '1022',
      responseDescription: 'Declined',
      bankRefNum: null,
      authCode: null,
      markedFailedByService: false,
      createdAt: at,
      updatedAt: at,
      completedAt: at,
      successAt: null,
      refunds: [],
      version: 2,
    });
    const linkToken = randomBytes(18).toString('base64url');
    await db.collection('payment_links').insertOne({
      _id: linkToken as never,
      merchantIdentifier: m,
      orderId: 'old-link',
      batchId: 'b',
      invoiceNumber: null,
      internalNotes: null,
      customerMobile: LINK_MOBILE,
      createdAt: at,
    });
    const checkoutToken = randomBytes(24).toString('base64url');
    await db.collection('checkouts').insertOne({
      _id: checkoutToken as never,
      merchantIdentifier: m,
      orderId: 'old-co',
      entry: 'V8',
      returnUrl: 'https://shop.example/return',
      paymentMode: 'UPI',
      bankid: COLLECT_VPA,
      createdAt: at,
    });
    const upgraded = await startTestGateway({ MONGODB_URI: uri, MONGODB_DB: fresh });
    try {
      const text = JSON.stringify(
        await Promise.all(['transactions', 'payment_links', 'checkouts'].map((c) => db.collection(c).find({}).toArray())),
      );
      for (const clear of [BUYER_NAME, BUYER_EMAIL, '198.51.100.4', LINK_MOBILE, COLLECT_VPA]) {
        assert.ok(!text.includes(clear), `${clear} still in clear after start-up`);
      }
      assert.ok(await db.collection('migrations').findOne({ _id: 'payer-data-at-rest-v2' as never }), 'marked done');
      const t = await upgraded.rt.transactions.findByOrder({ merchantIdentifier: m, orderId: 'old-1' });
      assert.deepEqual([t?.buyerName, t?.buyerEmail, t?.ipAddress], [BUYER_NAME, BUYER_EMAIL, '198.51.100.4']);
      const key = upgraded.rt.config.secrets.masterKey;
      assert.equal((await new PaymentLinkRepository(db, key).findByToken(linkToken))?.customerMobile, LINK_MOBILE);
      assert.equal((await new CheckoutRepository(db, key).findByToken(checkoutToken))?.bankid, COLLECT_VPA);
    } finally {
      await upgraded.stop();
      await db.dropDatabase().catch(() => undefined);
    }
  });
});
