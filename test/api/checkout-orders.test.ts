import { strict as assert } from 'node:assert';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { checkTxnAnswerSchema, checkTxnResponseSchema } from '../../src/api/schemas/check-txn';
import { checkoutResponseSchema } from '../../src/api/schemas/checkout';
import {
  awaitResultPage,
  formBody,
  hmac,
  openPage,
  postForm,
  postTransactU,
  returnFormOf,
  returnVerifies,
  submitPageForm,
  v8Data,
} from '../support/checkout';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { fetchTxn, ledger } from '../support/ledger';
import { newOrderId, paymentFinished } from '../support/payments';
import { startReceiver } from '../support/receiver';
import { reconcile } from '../support/reconciliations';
import { refund, refundFinished } from '../support/refunds';

/**
 * Checkout orders behave like every other order (status API, ledger, bulk, refunds, webhooks,
 * reconciliation), a
 * checkout nobody pays expires after CHECKOUT_EXPIRY_SECONDS and returns its failure, and
 * Zaakpay's legacy status API `/checkTxn?v=5` reads them (JSON or the PHP kits' unquoted data).
 */
describe('Checkout orders: status, ledger, bulk, refunds, webhooks, expiry, /checkTxn?v=5', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Chai Point'));
  });

  /** A checkout paid on its page with a test card; resolves once its workflow is done. */
  async function paidCheckout(orderId: string, cardNumber = '4012001037141112') {
    const posted = await postTransactU(
      gw,
      merchant.secretKey,
      v8Data(merchant, orderId, { orderDetail: { product2Description: 'Cup', firstName: 'Asha', lastName: 'Rao' } }),
      { browser: true },
    );
    const page = await openPage(gw, posted.location!);
    await submitPageForm(gw, `${posted.location}/pay`, page, [['cardNumber', cardNumber]]);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return posted.location!;
  }

  function checkTxn(data: string, checksum: string | null = hmac(merchant.secretKey, data)) {
    return postForm(`${gw.baseUrl}/checkTxn?v=5`, [
      ['data', data],
      ...(checksum === null ? [] : [['checksum', checksum] as [string, string]]),
    ]);
  }

  it('a paid checkout is in the status API, the ledger and bulk, and reaches the webhook', async () => {
    const receiver = await startReceiver();
    try {
      await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: receiver.url });
      const orderId = newOrderId('co');
      await paidCheckout(orderId);
      const status = await checkStatus(gw.baseUrl, merchant.secretKey, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId,
      });
      const order = status.json.data.orders[0];
      assert.equal(order.txnStatus, '0');
      assert.equal(order.paymentInstrument.paymentMode, 'Credit Card');
      assert.equal(order.orderDetail.amount, '25050');

      const today = formatIstDateTime(new Date()).slice(0, 10);
      const rows = (await ledger(gw, merchant.apiKey, { startDateTime: today, endDateTime: today, status: 'SUCCESS' })).json.data
        .transactions;
      const row = rows.find((r: { orderId: string }) => r.orderId === orderId);
      assert.equal(row.paymentSource, 'Card');
      assert.equal(row.buyerName, 'Asha Rao');
      assert.equal(row.amountInRupees, 250.5);
      const bulk = (await fetchTxn(gw, merchant.apiKey, { txnDate: today, status: 'success' })).json.data;
      assert.equal(bulk.find((r: { orderid: string }) => r.orderid === orderId).productDescription2, 'Cup');

      await receiver.received(1);
      const txnData = JSON.parse(new URLSearchParams(receiver.calls[0]!.body).get('txnData')!);
      assert.equal(txnData.txns[0].orderId, orderId);
      assert.equal(txnData.txns[0].responseCode, '100');
    } finally {
      await receiver.close();
    }
  });

  it('/checkTxn?v=5: JSON or unquoted data; the order with its card, its refunds; the code mirrored at the top', async () => {
    const orderId = newOrderId('co');
    await paidCheckout(orderId);
    const refunded = await refund(gw, merchant, { orderId, updateDesired: '22', amount: '5000', merchantRefId: 'r-1' });
    assert.equal(refunded.json.responseCode, '245', refunded.text);
    await refundFinished(gw, merchant.merchantIdentifier, orderId, 'r-1');

    const json = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, mode: '0', orderDetail: { orderId } });
    const found = await checkTxn(json);
    assert.equal(found.status, 200, found.text);
    const answer = checkTxnResponseSchema.parse(found.json);
    assert.equal(answer.success, true);
    assert.equal(answer.version, '5');
    const o = answer.orders[0]!;
    assert.equal(o.txnStatus, '4');
    assert.equal(o.orderDetail.product2Description, 'Cup');
    assert.equal(o.orderDetail.product1Description, 'NA');
    assert.deepEqual(
      {
        first4: o.paymentInstrument.card.first4,
        last4: o.paymentInstrument.card.last4,
        scheme: o.paymentInstrument.card.cardScheme,
      },
      { first4: '4012', last4: '1112', scheme: 'VISA' },
    );
    assert.equal(o.refundDetails[0]!.merchantRefId, 'r-1');
    // Zaakpay's refund entry carries the bank reference as arn; the order says money left the payer.
    assert.match(o.refundDetails[0]!.arn, /^\d{12}$/);
    assert.equal(o.refundDetails[0]!.arn, o.refundDetails[0]!.rrn);
    assert.equal(o.userAccountDebited, true);
    // After a refund the order's code is its latest refund's (245 partial), mirrored at the top.
    assert.deepEqual([o.responseCode, o.responseDescription], ['245', 'Transaction Partial Refund Initiated']);
    assert.equal(answer.responseCode, o.responseCode);
    assert.equal(answer.txnId, o.orderDetail.txnId);

    // As Zaakpay's PHP kit 1.1 builds it: no quotes at all.
    const unquoted = `{merchantIdentifier:${merchant.merchantIdentifier},mode:0,orderDetail:{orderId:${orderId}},refundDetail:{merchantRefId:none}}`;
    const loose = await checkTxn(unquoted);
    assert.equal(loose.json.success, true, loose.text);
    assert.deepEqual(loose.json.orders[0].refundDetails, [], 'only the refund asked for');
  });

  it("/checkTxn after a full refund: 230 with txnStatus 3 (Zaakpay's sample); a declined order was never debited", async () => {
    const orderId = newOrderId('co');
    await paidCheckout(orderId);
    const data = `{merchantIdentifier:${merchant.merchantIdentifier},mode:1,orderDetail:{orderId:${orderId}}}`;
    const paid = (await checkTxn(data)).json;
    assert.deepEqual([paid.orders[0].txnStatus, paid.responseCode, paid.orders[0].userAccountDebited], ['0', '100', true]);
    assert.equal((await refund(gw, merchant, { orderId, merchantRefId: 'all' })).json.responseCode, '230');
    await refundFinished(gw, merchant.merchantIdentifier, orderId, 'all');
    const after = checkTxnResponseSchema.parse((await checkTxn(data)).json);
    const o = after.orders[0]!;
    assert.deepEqual(
      [o.txnStatus, o.responseCode, o.responseDescription, after.responseCode],
      ['3', '230', 'Transaction Refund Initiated', '230'],
    );
    assert.deepEqual(
      o.refundDetails.map((r) => [r.merchantRefId, r.amount, r.refundStatus, r.arn === r.rrn]),
      [['all', '25050', 'SUCCESS', true]],
    );

    const declinedId = newOrderId('co');
    await paidCheckout(declinedId, '4000000000000002');
    const declinedData = `{merchantIdentifier:${merchant.merchantIdentifier},mode:0,orderDetail:{orderId:${declinedId}}}`;
    const declined = (await checkTxn(declinedData)).json;
    assert.deepEqual(
      [declined.orders[0].txnStatus, declined.responseCode, declined.orders[0].userAccountDebited],
      ['1', '400', false],
    );
  });

  it('/checkTxn refusals, all HTTP 200 as Zaakpay answers: 190 unknown order (in orders[0] too), 180, 189, 111, 110, 129', async () => {
    const data = (o: object) => JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, mode: '0', ...o });
    const unknown = await checkTxn(data({ orderDetail: { orderId: 'nobody' } }));
    assert.deepEqual([unknown.status, unknown.json.success, unknown.json.responseCode], [200, false, '190']);
    // A client reading orders[0].responseCode (as for a found order) reads the 190.
    assert.deepEqual(unknown.json.orders, [
      {
        orderDetail: { orderId: 'nobody' },
        responseCode: '190',
        responseDescription: 'OrderId either not processed or Rejected.',
      },
    ]);
    checkTxnAnswerSchema.parse(unknown.json);
    const wrong = await checkTxn(data({ orderDetail: { orderId: 'x' } }), hmac('other', 'x'));
    assert.deepEqual([wrong.status, wrong.json.responseCode, wrong.json.orders], [200, '180', []]);
    const blank = await checkTxn(data({ orderDetail: { orderId: 'x' } }), null);
    assert.deepEqual([blank.status, blank.json.responseCode], [200, '189']);
    const stranger = await checkTxn(JSON.stringify({ merchantIdentifier: 'nosuchmerchant', orderDetail: { orderId: 'x' } }));
    assert.deepEqual([stranger.status, stranger.json.responseCode], [200, '111']);
    const noMerchant = await checkTxn('{"orderDetail":{"orderId":"x"}}');
    assert.deepEqual([noMerchant.status, noMerchant.json.responseCode], [200, '110']);
    const noOrder = await checkTxn(data({ orderDetail: {} }));
    assert.deepEqual([noOrder.status, noOrder.json.responseCode], [200, '129']);
    const garbage = await request(`${gw.baseUrl}/checkTxn?v=5`, {
      body: formBody([['data', '{{{']]),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.deepEqual([garbage.status, garbage.json.responseCode], [200, '110']);
    for (const r of [wrong, blank, stranger, noMerchant, noOrder, garbage]) checkTxnAnswerSchema.parse(r.json);
  });

  it('a checkout nobody pays expires after CHECKOUT_EXPIRY_SECONDS: 183, returned signed; the open page reloads itself then', async () => {
    const short = await startTestGateway({ CHECKOUT_EXPIRY_SECONDS: '2' });
    try {
      const m = await short.newMerchant('Slow Payer');
      const orderId = newOrderId('exp');
      const posted = await postTransactU(short, m.secretKey, v8Data(m, orderId), { browser: true });
      const open = await openPage(short, posted.location!);
      assert.match(open.html, /<meta http-equiv="refresh" content="[1-3]">/);
      const ended = await paymentFinished(short, m.merchantIdentifier, orderId);
      assert.equal(ended.status, 'Failure');
      const back = returnFormOf(await awaitResultPage(short, posted.location!));
      assert.ok(returnVerifies(m.secretKey, 'V8', back.fields));
      assert.equal(new Map(back.fields).get('responseCode'), '183');
      assert.ok(back.autoSubmits);
      // Too late to pay or cancel: the page keeps the result.
      const again = await openPage(short, posted.location!);
      const cancelled = await submitPageForm(short, `${posted.location}/cancel`, { cookie: open.cookie, csrf: open.csrf });
      assert.equal(cancelled.status, 303);
      assert.equal(new Map(returnFormOf(again.html).fields).get('responseCode'), '183');
      const status = await checkStatus(short.baseUrl, m.secretKey, { merchantIdentifier: m.merchantIdentifier, orderId });
      assert.equal(status.json.data.orders[0].responseCode, '183');

      // As for an expired QR: the bank's file may show it paid after all (a delayed success).
      const txnId = (await short.rt.transactions.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId }))!.txnId;
      const report = await reconcile(short, `txnId,bankRefNum,status,amount\n${txnId},RRN1,SUCCESS,25050\n`);
      assert.equal(report.applied, 1, JSON.stringify(report));
      const reconciled = await short.rt.transactions.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId });
      assert.deepEqual([reconciled!.status, reconciled!.delayedSuccess], ['Success', true]);
    } finally {
      await short.stop();
    }
  });

  it("a checkout its payer cancelled that the bank's file reports paid becomes a delayed success: the bank's word about money wins", async () => {
    // The payer may have paid the checkout's UPI intent in their app before cancelling the page
    // (design.md, Transactions and states): a cancelled order is never a reason to drop money the bank holds.
    const orderId = newOrderId('cnl');
    const posted = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { browser: true });
    await submitPageForm(gw, `${posted.location}/cancel`, await openPage(gw, posted.location!));
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const txn = () => gw.rt.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId });
    assert.deepEqual([(await txn())!.status, (await txn())!.responseCode], ['Failure', '102']);
    const report = await reconcile(gw, `txnId,bankRefNum,status,amount\n${(await txn())!.txnId},RRN2,SUCCESS,25050\n`);
    assert.deepEqual([report.applied, report.rejected.length], [1, 0], JSON.stringify(report));
    assert.deepEqual([(await txn())!.status, (await txn())!.delayedSuccess], ['Success', true]);
  });

  it('offers test instruments only while the sandbox is on: without it, the UPI QR and a cancel', async () => {
    const live = await startTestGateway({ SANDBOX_ENABLED: 'false' });
    try {
      const m = await live.newMerchant('No Sandbox');
      const posted = await postTransactU(live, m.secretKey, v8Data(m, newOrderId('live')), { browser: true });
      const page = await openPage(live, posted.location!);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.html, /Or pay here|name="payerVpa"|name="cardNumber"|name="bankCode"/);
      assert.match(page.html, /Scan with any UPI app/);
      assert.match(page.html, /id="cancel"/);
      const refused = await submitPageForm(live, `${posted.location}/pay`, page, [['payerVpa', 'success@sandbox']]);
      assert.equal(refused.status, 400);
      assert.match(refused.text, /Pay by scanning the UPI QR/);
    } finally {
      await live.stop();
    }
  });

  it('the JSON answers match the documented schema', async () => {
    const answer = await postTransactU(
      gw,
      merchant.secretKey,
      v8Data(merchant, newOrderId('doc'), { paymentInstrument: { paymentMode: 'UPIAPP' } }),
    );
    checkoutResponseSchema.parse(answer.json);
    checkoutResponseSchema.parse((await postTransactU(gw, merchant.secretKey, '{}')).json);
  });
});
