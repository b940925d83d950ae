import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import {
  expressChecksum,
  expressPairs,
  kitForm,
  KIT_FORMS,
  legacyChecksum,
  phpSanitize,
  postForm,
  withChecksum,
  type Pairs,
  type Posted,
} from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, storedTransaction } from '../support/payments';

/**
 * A payer holding a merchant's signed checkout form cannot change the order it makes: the legacy
 * checksum signs values, not names, so a legacy form is taken only with its names in an order the
 * kits post (design.md, Checkout); and a checksum that verifies only over the PHP-sanitized
 * values makes the order of those values, never of characters the payer added.
 */
describe('Checkout: the signed fields are the order, whatever the payer re-posts', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Signed Fields'));
  });

  const legacy = (pairs: Pairs, v = '') => postForm(`${gw.baseUrl}/transact${v}`, pairs);
  const checkoutOf = (orderId: string) =>
    gw.rt.store.db.collection('checkouts').findOne({ merchantIdentifier: merchant.merchantIdentifier, orderId });
  async function nothingStored(orderId: string) {
    assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null, 'no order');
    assert.equal(await checkoutOf(orderId), null, 'no checkout');
  }
  function refused109(res: Posted, field?: string) {
    // Zaakpay's checkout answers a coded refusal with HTTP 200 and the code in the body.
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.responseCode, '109', res.text);
    if (field) assert.match(res.json.responseDescription, new RegExp(field));
  }

  it('legacy: a signed 900 renamed amount (the real amount renamed, moved or doubled) is refused, nothing stored', async () => {
    const orderId = newOrderId('ren');
    const signedForm = kitForm(KIT_FORMS.php, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      returnUrl: 'http://localhost/zp/response.php',
      buyerFirstName: '900',
      amount: '50000',
      productDescription: 'Rs 500 order',
    });
    const checksum = legacyChecksum(merchant.secretKey, signedForm);
    const renamed: Pairs = signedForm.map(([k, v]) => [k === 'buyerFirstName' ? 'amount' : k === 'amount' ? 'zzz' : k, v]);
    refused109(await legacy(withChecksum(renamed, checksum), '?v=3'));
    // The same values under the kit's names, but out of its order.
    const shuffled: Pairs = signedForm.map(([k, v]) => [
      k === 'buyerFirstName' ? 'amount' : k === 'amount' ? 'buyerFirstName' : k,
      v,
    ]);
    refused109(await legacy(withChecksum(shuffled, checksum)));
    // A name twice.
    const twice: Pairs = signedForm.map(([k, v]) => [k === 'buyerFirstName' ? 'amount' : k, v]);
    const doubled = await legacy(withChecksum(twice, checksum));
    assert.equal(doubled.json.responseCode, '109', doubled.text);
    assert.match(doubled.json.responseDescription, /more than once/);
    // Sorted by name: no kit posts it so, and a reading by name would let names move.
    const sorted: Pairs = [...signedForm].sort(([a], [b]) => (a < b ? -1 : 1));
    refused109(await legacy(withChecksum(sorted, legacyChecksum(merchant.secretKey, sorted))));
    await nothingStored(orderId);

    // The genuine form passes, in the kit's order, and the order has its amount.
    const genuine = await legacy(withChecksum(signedForm, checksum), '?v=3');
    assert.equal(genuine.status, 303, genuine.text);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))!.amountPaise, 50_000);
  });

  it("a value signed sanitized: the order takes the signed value, not the characters a payer added (a \\ in returnUrl's host)", async () => {
    const orderId = newOrderId('san');
    const signed = kitForm(KIT_FORMS.php, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      returnUrl: 'https://pay.shop.example/zp/return',
      amount: '10000',
      productDescription: 'Tea',
    });
    const checksum = legacyChecksum(merchant.secretKey, signed, phpSanitize);
    // A browser reads https://pay\.shop.example/ as host "pay"; the PHP-sanitized text is unchanged.
    const added = signed.map(([k, v]) => [k, k === 'returnUrl' ? 'https://pay\\.shop.example/zp/return' : v] as [string, string]);
    const posted = await legacy(withChecksum(added, checksum));
    assert.equal(posted.status, 303, posted.text);
    assert.equal((await checkoutOf(orderId))!.returnUrl, 'https://pay.shop.example/zp/return');

    const expressId = newOrderId('san');
    const pairs = expressPairs(merchant, expressId, [['returnUrl', 'https://pay.shop.example/zp/return']]);
    const expressSum = expressChecksum(merchant.secretKey, pairs, phpSanitize);
    const tampered = pairs.map(
      ([k, v]) => [k, k === 'returnUrl' ? 'https://pay\\.shop.example/zp/return' : v] as [string, string],
    );
    const express = await postForm(`${gw.baseUrl}/api/paymentTransact/V8`, withChecksum(tampered, expressSum));
    assert.equal(express.status, 303, express.text);
    assert.equal((await checkoutOf(expressId))!.returnUrl, 'https://pay.shop.example/zp/return');
  });
});
