import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import {
  awaitResultPage,
  expressChecksum,
  expressPairs,
  hmac,
  legacyChecksum,
  legacyKitPairs,
  kitForm,
  KIT_FORMS,
  openPage,
  payOnCheckoutPage,
  phpSanitize,
  postForm,
  postTransactU,
  returnFormOf,
  returnVerifies,
  submitPageForm,
  v8Data,
  V7_RETURN,
  V8_RETURN,
  withChecksum,
  type Pairs,
} from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { newOrderId, paymentFinished } from '../support/payments';

/**
 * Zaakpay's checkout entries over real HTTP: each entry and checksum scheme creates an order that
 * the hosted page pays through the payment workflow, and the result goes back signed exactly as
 * docs/contributors/design.md describes it (verified here by code written from its rulings, not the gateway's).
 * Also run against the bank simulator (npm run test:bank-simulator): cards and net banking then go
 * through the bank's page.
 */
describe('Checkout entries: /transactU?v=8, /api/paymentTransact/V8 and /V7, /transact', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Chai Point'));
  });

  const statusOf = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json;

  /** Pays the checkout at `location` on its page with one instrument, and reads the return form. */
  async function payOnPage(location: string, fields: Pairs) {
    await payOnCheckoutPage(gw, location, fields);
    return returnFormOf(await awaitResultPage(gw, location));
  }

  describe('POST /transactU?v=8 (custom checkout)', () => {
    it('a browser is sent to the hosted page; paying by UPI returns the V8 fields, signed', async () => {
      const orderId = newOrderId('co');
      const posted = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { browser: true });
      assert.equal(posted.status, 303, posted.text);
      assert.match(posted.location!, /^\/checkout\/[A-Za-z0-9_-]{32}$/);
      assert.equal((await statusOf(orderId)).data.orders[0].txnStatus, '2');

      const back = await payOnPage(posted.location!, [['payerVpa', 'success@sandbox']]);
      assert.equal(back.action, 'http://127.0.0.1:9/return');
      assert.deepEqual(
        back.fields.map(([k]) => k),
        [...V8_RETURN, 'checksum'],
      );
      assert.ok(returnVerifies(merchant.secretKey, 'V8', back.fields));
      assert.ok(back.autoSubmits, 'the first showing submits the return by script');
      const f = new Map(back.fields);
      assert.equal(f.get('responseCode'), '100');
      assert.equal(f.get('amount'), '25050');
      assert.equal(f.get('orderId'), orderId);
      assert.equal(f.get('paymentMode'), 'UPI');
      assert.equal(f.get('product1Description'), 'NA');
      const order = (await statusOf(orderId)).data.orders[0];
      assert.equal(order.txnStatus, '0');
      assert.equal(f.get('pgTransId'), order.orderDetail.txnId);
      // Shown again (a reload, the back button), the result no longer submits itself.
      assert.equal(returnFormOf(await awaitResultPage(gw, posted.location!)).autoSubmits, false);
    });

    it('a server asking for a UPI intent gets JSON 208; the sandbox payer pays it through /sandbox/v1/qr/pay', async () => {
      const orderId = newOrderId('co');
      const data = v8Data(merchant, orderId, { paymentInstrument: { paymentMode: 'UPIAPP' } });
      const posted = await postTransactU(gw, merchant.secretKey, data);
      assert.equal(posted.status, 200, posted.text);
      assert.equal(posted.json.responseCode, '208');
      assert.equal(posted.json.paymentMode, 'UPIAPP');
      assert.equal(posted.json.orderDetail.orderId, orderId);
      const bank = posted.json.bankPostData;
      assert.deepEqual(Object.keys(bank), [
        'androidIntentUrl',
        'gpayIntentIosUrl',
        'phonepeIntentIosUrl',
        'paytmIntentIosUrl',
        'mbkIntentIosUrl',
        'txnid',
      ]);
      assert.match(bank.androidIntentUrl, /^upi:\/\/pay\?pa=/);
      assert.match(bank.androidIntentUrl, /&am=250\.50&/);
      const res = await fetch(`${gw.baseUrl}/sandbox/v1/qr/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' }),
      });
      assert.equal(res.status, 202, await res.text());
      await paymentFinished(gw, merchant.merchantIdentifier, orderId);
      const order = (await statusOf(orderId)).data.orders[0];
      assert.equal(order.txnStatus, '0');
      assert.equal(order.orderDetail.txnId, bank.txnid);
    });

    it('a server asking for upiqr gets the QR as a base64 PNG', async () => {
      const orderId = newOrderId('co');
      const data = v8Data(merchant, orderId, { paymentInstrument: { paymentMode: 'upiqr' } });
      const posted = await postTransactU(gw, merchant.secretKey, data);
      assert.equal(posted.json.responseCode, '208', posted.text);
      const png = Buffer.from(posted.json.bankPostData.link, 'base64');
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      assert.deepEqual(Object.keys(posted.json.bankPostData), ['link', 'txnid']);
    });
  });

  describe('POST /api/paymentTransact/V8 and /V7 (express checkout)', () => {
    it('V8 with the Node kit form (empty fields posted): card, the V8 return', async () => {
      const orderId = newOrderId('v8');
      const pairs = expressPairs(merchant, orderId);
      const posted = await postForm(
        `${gw.baseUrl}/api/paymentTransact/V8`,
        withChecksum(pairs, expressChecksum(merchant.secretKey, pairs)),
        {
          browser: true,
        },
      );
      assert.equal(posted.status, 303, posted.text);
      const back = await payOnPage(posted.location!, [['cardNumber', '4012001037141112']]);
      assert.ok(returnVerifies(merchant.secretKey, 'V8', back.fields));
      const f = new Map(back.fields);
      assert.equal(f.get('responseCode'), '100');
      assert.equal(f.get('paymentMode'), 'Credit Card');
      assert.equal(f.get('cardToken'), '401200XXXXXX1112');
      assert.equal(f.get('cardScheme'), 'VISA');
    });

    it('V7: PHP-sanitized checksum accepted; declined net banking; exactly the V7 fields', async () => {
      const orderId = newOrderId('v7');
      const pairs = expressPairs(merchant, orderId, [['productDescription', 'Tea, (large) & cake']]);
      const checksum = expressChecksum(merchant.secretKey, pairs, phpSanitize);
      const posted = await postForm(`${gw.baseUrl}/api/paymentTransact/V7`, withChecksum(pairs, checksum), { browser: true });
      assert.equal(posted.status, 303, posted.text);
      const back = await payOnPage(posted.location!, [['bankCode', 'FAIL']]);
      assert.deepEqual(
        back.fields.map(([k]) => k),
        [...V7_RETURN, 'checksum'],
      );
      assert.ok(returnVerifies(merchant.secretKey, 'V7', back.fields));
      assert.equal(new Map(back.fields).get('responseCode'), '400');
    });

    it('V7 as a GET query string, signed over every field ASCII-sorted', async () => {
      const orderId = newOrderId('v7g');
      const pairs: Pairs = [
        ['merchantIdentifier', merchant.merchantIdentifier],
        ['orderId', orderId],
        ['amount', '1000'],
        ['returnUrl', 'https://shop.example/zp?cart=9'],
        ['udf1', 'extra'],
      ];
      const sorted = [...pairs].sort(([a], [b]) => (a < b ? -1 : 1));
      const checksum = hmac(merchant.secretKey, sorted.map(([k, v]) => `${k}=${v}&`).join(''));
      const posted = await postForm(`${gw.baseUrl}/api/paymentTransact/V7`, withChecksum(pairs, checksum), {
        browser: true,
        method: 'GET',
      });
      assert.equal(posted.status, 303, posted.text);
    });

    it('V8 takes the custom checkout data + checksum pair too', async () => {
      const orderId = newOrderId('v8d');
      const text = JSON.stringify(v8Data(merchant, orderId));
      const posted = await postForm(
        `${gw.baseUrl}/api/paymentTransact/V8`,
        [
          ['data', text],
          ['checksum', hmac(merchant.secretKey, text)],
        ],
        { browser: true },
      );
      assert.equal(posted.status, 303, posted.text);
    });
  });

  describe('POST /transact (legacy)', () => {
    it('v=2: quoted values in posted order; cancelled by the payer: 102 posted back with amount, signed', async () => {
      const orderId = newOrderId('lg');
      const pairs = legacyKitPairs(merchant, orderId, 'Zaakpay subscription fee');
      const posted = await postForm(
        `${gw.baseUrl}/transact?v=2`,
        withChecksum(pairs, legacyChecksum(merchant.secretKey, pairs)),
        {
          browser: true,
        },
      );
      assert.equal(posted.status, 303, posted.text);
      const page = await openPage(gw, posted.location!);
      const cancelled = await submitPageForm(gw, `${posted.location}/cancel`, page);
      assert.equal(cancelled.status, 303);
      const back = returnFormOf(await awaitResultPage(gw, posted.location!));
      assert.deepEqual(
        back.fields.map(([k]) => k),
        ['amount', 'orderId', 'responseCode', 'responseDescription', 'checksum'],
      );
      assert.ok(returnVerifies(merchant.secretKey, 'legacy', back.fields));
      assert.equal(new Map(back.fields).get('responseCode'), '102');
      assert.equal((await statusOf(orderId)).data.orders[0].txnStatus, '1');
    });

    it("plain /transact, the PHP kit's form: PHP-sanitized values signed (returnUrl keeps : and =); the return is orderId, responseCode, responseDescription", async () => {
      const orderId = newOrderId('lg');
      const pairs = kitForm(KIT_FORMS.php, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId,
        returnUrl: 'http://localhost/zp/response.php?x=1',
        amount: '10000',
        productDescription: 'Tea; 2 cups!',
      });
      const posted = await postForm(
        `${gw.baseUrl}/transact`,
        withChecksum(pairs, legacyChecksum(merchant.secretKey, pairs, phpSanitize)),
        { browser: true },
      );
      assert.equal(posted.status, 303, posted.text);
      const back = await payOnPage(posted.location!, [['payerVpa', 'failure@sandbox']]);
      assert.deepEqual(
        back.fields.map(([k]) => k),
        ['orderId', 'responseCode', 'responseDescription', 'checksum'],
      );
      const m = new Map(back.fields);
      // The plugins' own check: exactly 'orderId''responseCode''responseDescription'.
      assert.equal(
        m.get('checksum'),
        hmac(merchant.secretKey, `'${orderId}''${m.get('responseCode')}''${m.get('responseDescription')}'`),
      );
      assert.equal(back.action, 'http://localhost/zp/response.php?x=1');
    });
  });

  it("the sandbox's return page shows a return and whether it verifies; refuses unknown fields and merchants", async () => {
    const orderId = newOrderId('sbx');
    const returnUrl = `${gw.baseUrl}/sandbox/v1/checkout/return?merchantIdentifier=${merchant.merchantIdentifier}`;
    const posted = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId, { returnUrl }), { browser: true });
    const back = await payOnPage(posted.location!, [['bankCode', 'SBIN']]);
    const shown = await postForm(back.action, back.fields, { browser: true });
    assert.equal(shown.status, 200);
    assert.match(shown.text, /id="verified">checksum verified \(V8 return\)</);
    const tampered = back.fields.map(([k, v]) => [k, k === 'amount' ? '1' : v] as [string, string]);
    assert.match((await postForm(back.action, tampered, { browser: true })).text, /checksum does NOT verify/);
    assert.equal((await postForm(back.action, [...back.fields, ['extra', 'x']])).status, 400);
    const stranger = back.action.replace(merchant.merchantIdentifier, 'nosuchmerchant');
    assert.equal((await postForm(stranger, back.fields)).status, 404);
  });
});
