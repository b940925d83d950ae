import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';

const IST_FORMAT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('Status API: POST /api/payments/v1/status', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  async function payToCompletion(instrument: Record<string, unknown>, amount = 10_000) {
    const orderId = newOrderId();
    const paid = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, amount, ...instrument });
    assert.equal(paid.status, 202, paid.text);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return { orderId, txnId: paid.json.data.txnId as string };
  }

  const statusOf = (orderId: string, extra: object = {}) =>
    checkStatus(gw.baseUrl, merchant.secretKey, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      version: 13,
      ...extra,
    });

  it('reports a successful UPI payment in the contract envelope', async () => {
    const { orderId, txnId } = await payToCompletion({ payerVpa: 'success@sandbox' });
    const res = await statusOf(orderId);
    assert.equal(res.status, 200);
    const stored = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual(res.json, {
      status: true,
      message: { code: 100, text: 'Transaction completed successfully' },
      data: {
        success: true,
        merchantIdentifier: merchant.merchantIdentifier,
        version: '13',
        orders: [
          {
            orderDetail: {
              orderId,
              txnId,
              amount: '10000',
              productDescription: 'Masala chai',
              createDate: formatIstDateTime(stored!.createdAt),
            },
            paymentInstrument: { paymentMode: 'UPI', card: { cardToken: 'NA', cardId: 'NA' } },
            txnDate: formatIstDateTime(stored!.completedAt!),
            txnStatus: '0',
            responseCode: '100',
            responseDescription: 'The transaction was completed successfully. ',
            refundDetails: [],
          },
        ],
      },
    });
    assert.match(res.json.data.orders[0].txnDate, IST_FORMAT);
  });

  it('reports a card payment with masked card data, and never stores the card number', async () => {
    const { orderId } = await payToCompletion({ cardNumber: '4012001037141112' });
    const order = (await statusOf(orderId)).json.data.orders[0];
    assert.equal(order.txnStatus, '0');
    assert.equal(order.paymentInstrument.paymentMode, 'Credit Card');
    assert.equal(order.paymentInstrument.card.cardToken, '401200XXXXXX1112');
    assert.match(order.paymentInstrument.card.cardId, /^[0-9a-f]{32}$/);
    const raw = await gw.rt.store.db.collection('transactions').findOne({ orderId });
    assert.equal(JSON.stringify(raw).includes('4012001037141112'), false);
  });

  it("reads an order without its buyer's details: the answer never needs them opened", async () => {
    const { orderId } = await payToCompletion({ payerVpa: 'success@sandbox' });
    const before = (await statusOf(orderId)).json;
    // Sealed buyer details that would not open (sealed for another order): a read that opened them would fail.
    const txns = gw.rt.store.db.collection<{ _id: string; buyerSealed?: string }>('transactions');
    const other = await txns.findOne({
      _id: { $ne: `${merchant.merchantIdentifier}:${orderId}` },
      buyerSealed: { $exists: true },
    });
    await txns.updateOne({ _id: `${merchant.merchantIdentifier}:${orderId}` }, { $set: { buyerSealed: other!.buyerSealed! } });
    const after = await statusOf(orderId);
    assert.equal(after.status, 200, after.text);
    assert.deepEqual(after.json, before);
  });

  it("reads a UPI order without opening its payer's VPA, which the answer never shows", async () => {
    const { orderId } = await payToCompletion({ payerVpa: 'success@sandbox' });
    const { orderId: otherOrderId } = await payToCompletion({ payerVpa: 'success@sandbox' });
    const before = (await statusOf(orderId)).json;
    // A sealed VPA that would not open (sealed for another order): a read that opened it would fail.
    const txns = gw.rt.store.db.collection<{ _id: string; instrument: { kind: string; sealed?: string } }>('transactions');
    const other = await txns.findOne({ _id: `${merchant.merchantIdentifier}:${otherOrderId}` });
    assert.ok(other?.instrument.sealed);
    await txns.updateOne(
      { _id: `${merchant.merchantIdentifier}:${orderId}` },
      { $set: { 'instrument.sealed': other.instrument.sealed } },
    );
    const after = await statusOf(orderId);
    assert.equal(after.status, 200, after.text);
    assert.deepEqual(after.json, before);
  });

  it('always gives paymentInstrument.card as an object (NA without a card), so card.cardToken can be read', async () => {
    for (const [instrument, paymentMode] of [
      [{ payerVpa: 'success@sandbox' }, 'UPI'],
      [{ bankCode: 'SBIN' }, 'Net Banking'],
      [{ payerVpa: 'failure@sandbox' }, 'UPI'],
    ] as const) {
      const { orderId } = await payToCompletion(instrument);
      const order = (await statusOf(orderId)).json.data.orders[0];
      assert.deepEqual(order.paymentInstrument, { paymentMode, card: { cardToken: 'NA', cardId: 'NA' } });
    }
    // Pending too: nothing is known of the instrument's card yet.
    const pending = newOrderId();
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId: pending, payerVpa: 'noanswer@sandbox' });
    const order = (await statusOf(pending)).json.data.orders[0];
    assert.deepEqual([order.txnStatus, order.paymentInstrument.card], ['2', { cardToken: 'NA', cardId: 'NA' }]);
  });

  it('reports declines with their response codes', async () => {
    const card = await payToCompletion({ cardNumber: '4000000000000002' });
    const netbanking = await payToCompletion({ bankCode: 'FAIL' });
    const upi = await payToCompletion({ payerVpa: 'failure@sandbox' });
    for (const { orderId } of [card, netbanking, upi]) {
      const order = (await statusOf(orderId)).json.data.orders[0];
      assert.equal(order.txnStatus, '1', orderId);
      assert.equal(order.responseCode, '400');
    }
    assert.equal((await statusOf(netbanking.orderId)).json.data.orders[0].paymentInstrument.paymentMode, 'Net Banking');
  });

  it('declines a payment below 9 rupees with 1021', async () => {
    const { orderId } = await payToCompletion({ bankCode: 'SBIN' }, 899);
    const order = (await statusOf(orderId)).json.data.orders[0];
    assert.deepEqual(
      [order.txnStatus, order.responseCode, order.responseDescription],
      ['1', '1021', 'Minimum transaction limit is 9 rupees.'],
    );
  });

  it('shows Pending while the bank is silent, then Failure marked by the service after the timeout', async () => {
    const orderId = newOrderId();
    const paid = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' });
    assert.equal(paid.status, 202);
    const pending = (await statusOf(orderId)).json.data.orders[0];
    assert.deepEqual([pending.txnStatus, pending.responseCode], ['2', '208']);
    const result = await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    assert.equal(result.markedFailedByService, true);
    const failed = (await statusOf(orderId)).json.data.orders[0];
    assert.deepEqual([failed.txnStatus, failed.responseCode], ['1', '183']);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.markedFailedByService, true);
  });

  it('echoes version as a string, 13 when not sent', async () => {
    const { orderId } = await payToCompletion({ payerVpa: 'success@sandbox' });
    assert.equal((await statusOf(orderId, { version: 12 })).json.data.version, '12');
    const withoutVersion = await checkStatus(gw.baseUrl, merchant.secretKey, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
    });
    assert.equal(withoutVersion.json.data.version, '13');
  });

  it('answers an unknown order as a business result: 200, status false', async () => {
    const res = await statusOf('no-such-order');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {
      status: false,
      message: { code: 2020, text: 'No transaction found for this order' },
      data: { success: false, merchantIdentifier: merchant.merchantIdentifier, version: '13', orders: [] },
    });
  });

  it("never shows one merchant another merchant's order", async () => {
    const { orderId } = await payToCompletion({ payerVpa: 'success@sandbox' });
    const other = await gw.newMerchant('Other');
    const res = await checkStatus(gw.baseUrl, other.secretKey, {
      merchantIdentifier: other.merchantIdentifier,
      orderId,
      version: 13,
    });
    assert.equal(res.status, 200);
    assert.equal(res.json.status, false);
    assert.deepEqual(res.json.data.orders, []);
    // Naming the owner while signing with one's own key fails authentication.
    const spoofed = await checkStatus(gw.baseUrl, other.secretKey, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      version: 13,
    });
    assert.equal(spoofed.status, 401);
  });

  describe('bad input: right status and envelope, never a 500, nothing stored changes', () => {
    let orderId: string;
    let storedBefore: unknown;

    before(async () => {
      ({ orderId } = await payToCompletion({ payerVpa: 'success@sandbox' }));
      storedBefore = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    });
    afterEach(async () => {
      assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), storedBefore);
    });

    const url = () => `${gw.baseUrl}/api/payments/v1/status`;
    const expectError = (res: { status: number; json: any }, status: number, code: number) => {
      assert.equal(res.status, status, JSON.stringify(res.json));
      assert.equal(res.json.status, false);
      assert.equal(res.json.message.code, code);
      assert.equal(typeof res.json.message.text, 'string');
      assert.equal('success' in res.json, false, 'status envelope, not the success envelope');
    };

    it('malformed JSON: 400', async () => {
      expectError(await checkStatus(gw.baseUrl, merchant.secretKey, '{"merchantIdentifier": '), 400, 2001);
    });

    it('a body that is not an object: 400', async () => {
      for (const body of ['[]', 'null', '"x"', '42'])
        expectError(await checkStatus(gw.baseUrl, merchant.secretKey, body), 400, 2002);
    });

    it('wrong types: 400 naming the field', async () => {
      const res = await statusOf(orderId, { version: '13' });
      expectError(res, 400, 2002);
      assert.match(res.json.message.text, /version/);
      const numericOrder = await checkStatus(gw.baseUrl, merchant.secretKey, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: 12345,
      });
      expectError(numericOrder, 400, 2002);
      assert.match(numericOrder.json.message.text, /orderId/);
    });

    it('missing or out-of-range fields: 400', async () => {
      expectError(
        await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier }),
        400,
        2002,
      );
      expectError(await checkStatus(gw.baseUrl, merchant.secretKey, { orderId }), 400, 2002);
      expectError(await statusOf('x'.repeat(65)), 400, 2002);
      expectError(await statusOf(orderId, { version: -1 }), 400, 2002);
    });

    it('missing checksum: 401', async () => {
      const res = await request(url(), { body: { merchantIdentifier: merchant.merchantIdentifier, orderId } });
      expectError(res, 401, 2010);
    });

    it('wrong checksum, including one over re-serialised JSON: 401', async () => {
      const body = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderId, version: 13 });
      expectError(await request(url(), { body, headers: { checksum: 'f'.repeat(64) } }), 401, 2011);
      expectError(await request(url(), { body, headers: { checksum: 'not-hex' } }), 401, 2011);
      const signedOther = hmacSha256Hex(merchant.secretKey, JSON.stringify(JSON.parse(body), null, 1));
      expectError(await request(url(), { body, headers: { checksum: signedOther } }), 401, 2011);
    });

    it('an invalid body with a wrong checksum: 401, before its fields are judged (nothing learnt of the rules)', async () => {
      const body = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderId: 12345, version: '13' });
      expectError(await request(url(), { body, headers: { checksum: 'f'.repeat(64) } }), 401, 2011);
    });

    it('unknown merchant: 401', async () => {
      expectError(await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: 'f'.repeat(32), orderId }), 401, 2012);
    });

    it('oversized body: 413', async () => {
      const body = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderId, padding: 'x'.repeat(70_000) });
      expectError(await checkStatus(gw.baseUrl, merchant.secretKey, body), 413, 2004);
    });

    it('wrong content type: 415; wrong method: 405', async () => {
      const body = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderId });
      expectError(await request(url(), { body, headers: { 'content-type': 'text/plain' } }), 415, 2003);
      expectError(await request(url(), { method: 'GET' }), 405, 2041);
    });
  });
});
