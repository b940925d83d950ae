import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { expressChecksum, expressPairs, postForm, postTransactU, v8Data, withChecksum } from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { createLinks, linkEntry, newBatchId } from '../support/payment-links';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { createQr } from '../support/qr';

/**
 * Zaakpay's clients send an optional field empty when they have no value and write mobiles with a
 * prefix (design.md, Optional text fields and phone numbers): `""` counts as absent, and
 * +919876543210, 919876543210 and 09876543210 are kept as 9876543210. Mandates are in
 * mandates.test.ts (they need the injectable clock).
 */
describe('Optional fields sent empty and mobiles with a prefix, as Zaakpay’s clients send them', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Empty Fields')));

  it('dynamic QR: buyerEmail "" is absent (208), the order has no buyer email', async () => {
    const orderId = newOrderId('qr');
    const res = await createQr(gw, merchant, { orderId, buyerEmail: '' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.success, true, res.text);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.buyerEmail, null);
  });

  it('sandbox payment: buyerEmail "" is absent', async () => {
    const orderId = newOrderId('sb');
    const res = await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      buyerEmail: '',
      payerVpa: 'success@sandbox',
    });
    assert.ok([200, 202].includes(res.status), res.text);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.buyerEmail, null);
  });

  it('payment links: customerEmail "" and customerMobile written +91, 91 or 0 are accepted, echoed as the 10 digits', async () => {
    const mobiles = ['+919876543210', '919876543210', '09876543210', '9876543210', 919876543210, 9876543210, '+91 98765 43210'];
    const entries = mobiles.map((customerMobile) => linkEntry({ customerEmail: '', customerMobile }));
    const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: entries });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.statusCode, 200, res.text);
    for (const entry of res.json.data) {
      assert.equal(entry.customerMobile, '9876543210');
      assert.equal('customerEmail' in entry, false, 'empty counts as not sent');
    }
    const stored = await storedTransaction(gw, merchant.merchantIdentifier, entries[0]!.orderId as string);
    assert.equal(stored?.buyerEmail, null);
  });

  it('payment links: a mobile that is not Indian, or too short after its prefix, fails the entry naming the field', async () => {
    // Grouped by single spaces or hyphens (+91 98765 43210) is accepted; other separators are not.
    const bad = ['+449876543210', '0987654321', '5876543210', '+91  9876543210', '+91 98765_43210', 12345];
    const res = await createLinks(gw, merchant.apiKey, {
      batchId: newBatchId(),
      details: bad.map((customerMobile) => linkEntry({ customerMobile })),
    });
    assert.equal(res.json.statusCode, 400, res.text);
    for (const entry of res.json.data) assert.match(entry.errorDescription, /customerMobile/);
  });

  it('checkout: email "" (custom) and buyerEmail "" (express), mode "1" live, are accepted; mode "2" is 109', async () => {
    const custom = await postTransactU(
      gw,
      merchant.secretKey,
      v8Data(merchant, newOrderId('co'), { mode: '1', orderDetail: { email: '', phone: '' } }),
      { browser: true },
    );
    assert.equal(custom.status, 303, custom.text);
    const pairs = expressPairs(merchant, newOrderId('co'), [
      ['buyerEmail', ''],
      ['mode', '1'],
    ]);
    const express = await postForm(
      `${gw.baseUrl}/api/paymentTransact/V8`,
      withChecksum(pairs, expressChecksum(merchant.secretKey, pairs)),
      {
        browser: true,
      },
    );
    assert.equal(express.status, 303, express.text);
    const numeric = await postTransactU(gw, merchant.secretKey, v8Data(merchant, newOrderId('co'), { mode: 1 }), {
      browser: true,
    });
    assert.equal(numeric.status, 303, numeric.text);
    const wrong = await postTransactU(gw, merchant.secretKey, v8Data(merchant, newOrderId('co'), { mode: '2' }));
    assert.deepEqual([wrong.status, wrong.json.responseCode], [200, '109']);
    assert.match(wrong.json.responseDescription, /mode/);
  });
});
