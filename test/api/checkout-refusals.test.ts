import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import {
  expressChecksum,
  expressPairs,
  hmac,
  kitForm,
  KIT_FORMS,
  legacyChecksum,
  openPage,
  postForm,
  postTransactU,
  submitPageForm,
  v8Data,
  withChecksum,
  type Pairs,
  type Posted,
} from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';

/**
 * Every refusal of the checkout entries (design.md, Checkout): a wrong checksum in any scheme is
 * 180, a missing field 108 and an invalid one 109 naming it, an unknown merchant 101, no return
 * address 182, a used orderId refused without touching its order. A refusal never gives a 500 and
 * stores nothing: no order, no claim on its orderId, no checkout.
 */
describe('Checkout entries refuse bad input, storing nothing', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Refusals'));
  });

  async function nothingStored(orderId: string) {
    const key = `${merchant.merchantIdentifier}:${orderId}`;
    assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null, 'no order');
    assert.equal(await gw.rt.store.db.collection('order_ids').findOne({ _id: key as never }), null, 'no orderId claim');
    assert.equal(await gw.rt.store.db.collection('checkouts').countDocuments({ orderId }), 0, 'no checkout');
  }
  function refused(res: Posted, http: number, code: string, text?: RegExp) {
    assert.equal(res.status, http, res.text);
    assert.equal(res.json.responseCode, code, res.text);
    if (text) assert.match(res.json.responseDescription, text);
  }
  const express = (version: 'V8' | 'V7', pairs: Pairs, o: { browser?: boolean; method?: 'GET' | 'POST' } = {}) =>
    postForm(`${gw.baseUrl}/api/paymentTransact/${version}`, pairs, o);
  const signedExpress = (pairs: Pairs) => withChecksum(pairs, expressChecksum(merchant.secretKey, pairs));
  const legacy = (pairs: Pairs, v = '') => postForm(`${gw.baseUrl}/transact${v}`, pairs);

  describe('a wrong checksum is 180 in every scheme', () => {
    it('/transactU?v=8: another secret, or data changed after signing; a browser sees it on a page', async () => {
      const orderId = newOrderId('bad');
      const data = JSON.stringify(v8Data(merchant, orderId));
      refused(await postTransactU(gw, merchant.secretKey, data, { checksum: hmac('another secret', data) }), 200, '180');
      refused(await postTransactU(gw, merchant.secretKey, data, { checksum: hmac(merchant.secretKey, `${data} `) }), 200, '180');
      const page = await postTransactU(gw, merchant.secretKey, data, { browser: true, checksum: 'f'.repeat(64) });
      assert.equal(page.status, 200);
      assert.match(page.type, /text\/html/);
      assert.match(page.text, /<span id="code">180<\/span>/);
      await nothingStored(orderId);
    });

    it('express V8 and V7 (POST and GET): a field changed after signing, or a checksum of the unlisted order', async () => {
      const orderId = newOrderId('bad');
      const pairs = expressPairs(merchant, orderId);
      const signed = expressChecksum(merchant.secretKey, pairs);
      const tampered = pairs.map(([k, v]) => [k, k === 'amount' ? '100' : v] as [string, string]);
      refused(await express('V8', withChecksum(tampered, signed)), 200, '180');
      refused(await express('V7', withChecksum(tampered, signed), { method: 'GET' }), 200, '180');
      // Signed over the fields in posted order: none of the accepted schemes.
      const wireOrder = hmac(
        merchant.secretKey,
        pairs
          .filter(([, v]) => v !== '')
          .map(([k, v]) => `${k}=${v}&`)
          .join(''),
      );
      refused(await express('V8', withChecksum(pairs, wireOrder)), 200, '180');
      await nothingStored(orderId);
    });

    it('legacy /transact: signed in another order than posted, or without the quotes', async () => {
      const orderId = newOrderId('bad');
      const pairs: Pairs = [
        ['orderId', orderId],
        ['merchantIdentifier', merchant.merchantIdentifier],
        ['amount', '10000'],
        ['returnUrl', 'http://localhost/r.php'],
      ];
      const reversed = legacyChecksum(merchant.secretKey, [...pairs].reverse());
      refused(await legacy(withChecksum(pairs, reversed)), 200, '180');
      const unquoted = hmac(merchant.secretKey, pairs.map(([, v]) => v).join(''));
      refused(await legacy(withChecksum(pairs, unquoted), '?v=3'), 200, '180');
      await nothingStored(orderId);
    });
  });

  it('an unknown merchant is 101; no merchantIdentifier or no checksum is 108 naming it', async () => {
    const orderId = newOrderId('bad');
    const stranger = { ...merchant, merchantIdentifier: 'nosuchmerchant0' };
    refused(await postTransactU(gw, merchant.secretKey, v8Data(stranger, orderId)), 200, '101');
    const pairs = expressPairs(stranger, orderId);
    refused(await express('V8', signedExpress(pairs)), 200, '101');
    refused(
      await express('V8', signedExpress(pairs.filter(([k]) => k !== 'merchantIdentifier'))),
      200,
      '108',
      /merchantIdentifier/,
    );
    refused(await express('V8', expressPairs(merchant, orderId)), 200, '108', /checksum/);
    refused(await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { checksum: '' }), 200, '108', /checksum/);
    await nothingStored(orderId);
  });

  it('a missing field is 108 and an invalid one 109, each named; the JSON answer echoes the orderDetail', async () => {
    const orderId = newOrderId('bad');
    const noAmount = v8Data(merchant, orderId, { orderDetail: { amount: undefined } });
    refused(await postTransactU(gw, merchant.secretKey, noAmount), 200, '108', /orderDetail\.amount/);
    const badAmount = await postTransactU(
      gw,
      merchant.secretKey,
      v8Data(merchant, orderId, { orderDetail: { amount: '12.50' } }),
    );
    refused(badAmount, 200, '109', /orderDetail\.amount/);
    assert.equal(badAmount.json.orderDetail.orderId, orderId);
    refused(
      await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId, { paymentInstrument: { paymentMode: 'cheque' } })),
      200,
      '109',
      /paymentInstrument\.paymentMode/,
    );
    refused(await express('V8', signedExpress(expressPairs(merchant, orderId, [['amount', '']]))), 200, '108', /amount/);
    refused(
      await express('V7', signedExpress(expressPairs(merchant, orderId, [['buyerEmail', 'not-an-email']]))),
      200,
      '109',
      /buyerEmail/,
    );
    refused(await express('V8', signedExpress(expressPairs(merchant, orderId, [['currency', 'USD']]))), 200, '109', /currency/);
    refused(await express('V8', signedExpress(expressPairs(merchant, 'bad order id!'))), 200, '109', /orderId/);
    refused(await postTransactU(gw, merchant.secretKey, 'not json'), 200, '109', /data/);
    await nothingStored(orderId);
  });

  it('a returnUrl that is not http(s) is 109; no returnUrl and no default return URL is 182', async () => {
    const orderId = newOrderId('bad');
    for (const returnUrl of ['javascript:alert(1)', 'ftp://shop.example/r', 'data:text/html,hi', '/relative']) {
      refused(await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId, { returnUrl })), 200, '109', /returnUrl/);
      refused(
        await express('V8', signedExpress(expressPairs(merchant, orderId, [['returnUrl', returnUrl]]))),
        200,
        '109',
        /returnUrl/,
      );
    }
    refused(await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId, { returnUrl: undefined })), 200, '182');
    refused(await express('V8', signedExpress(expressPairs(merchant, orderId, [['returnUrl', '']]))), 200, '182');
    await nothingStored(orderId);
  });

  it('a merchant with a default return URL may leave returnUrl out', async () => {
    const patched = await request(`${gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}`, {
      method: 'PATCH',
      body: { defaultReturnUrl: 'https://shop.example/zaakpay/response?from=default' },
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.data.defaultReturnUrl, 'https://shop.example/zaakpay/response?from=default');
    const orderId = newOrderId('dflt');
    const posted = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId, { returnUrl: undefined }), {
      browser: true,
    });
    assert.equal(posted.status, 303, posted.text);
    const checkout = await gw.rt.store.db.collection('checkouts').findOne({ orderId });
    assert.equal(checkout?.returnUrl, 'https://shop.example/zaakpay/response?from=default');
  });

  it('a used orderId is refused with Zaakpay’s 128 (HTTP 200) without touching the order holding it; the same request again finds its checkout', async () => {
    const used = [200, '128', /^Order Id Already Processed with this Merchant\.$/] as const;
    const paidId = newOrderId('used');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId: paidId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchant.merchantIdentifier, paidId);
    const before = await storedTransaction(gw, merchant.merchantIdentifier, paidId);
    refused(await postTransactU(gw, merchant.secretKey, v8Data(merchant, paidId)), ...used);
    refused(await express('V8', signedExpress(expressPairs(merchant, paidId))), ...used);
    const legacyPairs = kitForm(KIT_FORMS.php, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: paidId,
      returnUrl: 'http://127.0.0.1:9/return',
      buyerEmail: 'payer@example.com',
      amount: '10000',
    });
    refused(await legacy(withChecksum(legacyPairs, legacyChecksum(merchant.secretKey, legacyPairs))), ...used);
    // A browser sees it on a page.
    const page = await postTransactU(gw, merchant.secretKey, v8Data(merchant, paidId), { browser: true });
    assert.match(page.text, /Order Id Already Processed with this Merchant\./);
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, paidId), before);
    assert.equal(await gw.rt.store.db.collection('checkouts').countDocuments({ orderId: paidId }), 0);

    const orderId = newOrderId('again');
    const first = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { browser: true });
    const again = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { browser: true });
    assert.equal(again.status, 303);
    assert.equal(again.location, first.location);
    const order = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    const otherAmount = v8Data(merchant, orderId, { orderDetail: { amount: '99900' } });
    refused(await postTransactU(gw, merchant.secretKey, otherAmount), ...used);
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), order);
  });

  it('a malformed form (a field twice, not UTF-8) is 109, another media type 415; an unknown v is 2009; never a 500', async () => {
    const orderId = newOrderId('bad');
    const pairs = signedExpress(expressPairs(merchant, orderId));
    refused(await express('V8', [...pairs, ['orderId', 'again']]), 200, '109');
    const notUtf8 = await fetch(`${gw.baseUrl}/transact`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from([0x6f, 0x3d, 0xff]),
    });
    assert.equal(notUtf8.status, 200);
    assert.equal(((await notUtf8.json()) as { responseCode: string }).responseCode, '109');
    const json = await request(`${gw.baseUrl}/transactU?v=8`, { body: { data: '{}' } });
    assert.equal(json.status, 415);
    assert.equal(json.json.responseCode, '109');
    const v9 = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { v: '9' });
    assert.equal(v9.status, 400);
    assert.equal(v9.json.responseCode, '2009');
    await nothingStored(orderId);
  });

  it("the page's forms refuse what did not come from the page, and a bad instrument, changing nothing", async () => {
    const orderId = newOrderId('page');
    const posted = await postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { browser: true });
    const page = await openPage(gw, posted.location!);
    const before = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    const noCookie = await submitPageForm(gw, `${posted.location}/pay`, { cookie: '', csrf: page.csrf }, [
      ['payerVpa', 'success@sandbox'],
    ]);
    assert.equal(noCookie.status, 403);
    const otherOrigin = await postForm(`${gw.baseUrl}${posted.location}/cancel`, [['csrf', page.csrf]], {
      browser: true,
      headers: { cookie: page.cookie, origin: 'https://evil.example' },
    });
    assert.equal(otherOrigin.status, 403);
    const badVpa = await submitPageForm(gw, `${posted.location}/pay`, page, [['payerVpa', 'someone@okbank']]);
    assert.equal(badVpa.status, 400);
    assert.match(badVpa.text, /id="error">That payment method was not accepted: payerVpa must be one of/);
    const nothing = await submitPageForm(gw, `${posted.location}/pay`, page, []);
    assert.equal(nothing.status, 400);
    const unknown = await openPage(gw, `/checkout/${'A'.repeat(32)}`);
    assert.equal(unknown.status, 404);
    assert.equal((await openPage(gw, '/checkout/not-a-token')).status, 404);
    assert.equal((await submitPageForm(gw, `/checkout/${'B'.repeat(32)}/cancel`, page)).status, 404);
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), before);
  });
});
