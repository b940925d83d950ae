import { strict as assert } from 'node:assert';
import { XMLParser } from 'fast-xml-parser';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import {
  awaitResultPage,
  formBody,
  kitForm,
  KIT_FORMS,
  legacyChecksum,
  payOnCheckoutPage,
  phpSanitize,
  postForm,
  withChecksum,
  type Pairs,
} from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, storedTransaction } from '../support/payments';

/**
 * A payer holds the merchant's signed legacy checkout form, whose name and address values they
 * typed. The checksum signs values, not names: these are the two ways such a form was turned into
 * money, each re-posted as the payer would.
 */
describe('Legacy forms: what a payer holding a signed checkout form cannot do', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Legacy Attacks')));

  const xml = new XMLParser({ parseTagValue: false });
  async function postXml(path: string, pairs: Pairs) {
    const res = await fetch(`${gw.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody(pairs),
    });
    const answer = xml.parse(await res.text()).zaakpay_response;
    return { status: res.status, element: answer.response_element, checksum: String(answer.checksum ?? '') };
  }

  it("the paid order's /transact form, renamed and re-posted to /updatetransaction or /checktransaction, refunds nothing and reads no status", async () => {
    // The payer typed 14 as their first name, "Kumar" as their last, and another order's id as their city.
    const othersOrder = newOrderId('other');
    const orderId = newOrderId('atk');
    const form = kitForm(KIT_FORMS.php, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      returnUrl: 'http://localhost/zp/response.php',
      buyerFirstName: '14',
      buyerLastName: 'Kumar',
      buyerCity: othersOrder,
      amount: '10000',
      productDescription: 'Tea',
    });
    const checksum = legacyChecksum(merchant.secretKey, form, phpSanitize);
    const opened = await postForm(`${gw.baseUrl}/transact`, withChecksum(form, checksum), { browser: true });
    assert.equal(opened.status, 303, opened.text);
    await payOnCheckoutPage(gw, opened.location!, [['payerVpa', 'success@sandbox']]);
    await awaitResultPage(gw, opened.location!);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);

    const renamed = (names: Record<string, string>): Pairs => [
      ...form.map(([k, v], i) => [names[k] ?? (i < 2 ? k : `f${i}`), v] as [string, string]),
      ['checksum', checksum],
    ];
    const refund = await postXml(
      '/updatetransaction',
      renamed({ buyerFirstName: 'updateDesired', buyerLastName: 'updateReason' }),
    );
    assert.deepEqual([refund.status, refund.element.responsecode], [200, '109'], JSON.stringify(refund.element));
    assert.match(refund.element.description, /returnUrl|f2/);
    // Only the kit's names, in a refund form's order: still not a refund form (a checkout form has more fields).
    const kitNames = await postXml(
      '/updatetransaction',
      renamed({ buyerFirstName: 'updateDesired', buyerLastName: 'updateReason', mode: 'mode' }),
    );
    assert.equal(kitNames.element.responsecode, '109');
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.equal(t!.status, 'Success');
    assert.deepEqual(t!.refunds, [], 'no refund');

    const status = await postXml('/checktransaction', renamed({ orderId: 'f1', buyerCity: 'orderId' }));
    assert.deepEqual([status.status, status.element.responsecode], [200, '109'], JSON.stringify(status.element));
    assert.equal(status.element.txnstatus, undefined, 'no status read');
    // Refusals of a form not read as a kit's are not signed: their text echoes what the poster chose
    // (a raw orderId, a field's name), and signed it would verify as a forged "100" return.
    for (const a of [refund, kitNames, status]) assert.equal(a.checksum, '', 'no checksum on an unread form');
    const forged = await postXml('/checktransaction', renamed({ orderId: 'o', buyerAddress: 'orderId' }));
    assert.equal(forged.element.responsecode, '109');
    assert.equal(forged.checksum, '', 'the poster-chosen orderid is not signed');
  });

  it('values merged across their quotes cannot open a page for Rs 9 when the form was signed for Rs 5,00,000', async () => {
    const orderId = newOrderId('mrg');
    // Signed over the raw values (as merchants' own code does); the payer typed 900 as their phone.
    const form = kitForm(KIT_FORMS.php, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      returnUrl: 'http://localhost/zp/response.php',
      buyerPhoneNumber: '900',
      amount: '50000000',
      productDescription: 'Gold',
    });
    const checksum = legacyChecksum(merchant.secretKey, form);
    // buyerPhoneNumber's 900 renamed amount; txnType..amount merged into one value under merchantIpAddress.
    const at = (k: string) => form.findIndex(([n]) => n === k);
    const merged = form
      .slice(at('txnType'), at('merchantIpAddress') + 1)
      .map(([, v]) => v)
      .join("''");
    const attack: Pairs = [
      ...form.slice(0, at('buyerPhoneNumber')),
      ['amount', '900'],
      ['merchantIpAddress', merged],
      ...form.slice(at('merchantIpAddress') + 1),
      ['checksum', checksum],
    ];
    assert.equal(legacyChecksum(merchant.secretKey, attack.slice(0, -1)), checksum, "the same 'v1''v2'... text");
    for (const v of ['', '?v=2', '?v=3']) {
      const posted = await postForm(`${gw.baseUrl}/transact${v}`, attack);
      assert.equal(posted.status, 200, posted.text);
      assert.equal(posted.json.responseCode, '109', posted.text);
    }
    assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null, 'no order');
    // The genuine form opens for Rs 5,00,000.
    const genuine = await postForm(`${gw.baseUrl}/transact`, withChecksum(form, checksum));
    assert.equal(genuine.status, 303, genuine.text);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))!.amountPaise, 50_000_000);
  });

  it("values re-split under the kit's own names cannot open a page for Rs 9 when the form was signed for Rs 5,00,000", async () => {
    const orderId = newOrderId('sft');
    // The payer typed as their phone the form's next values and 900, joined as the signed text joins them.
    const form = kitForm(KIT_FORMS.php, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      returnUrl: 'http://localhost/zp/response.php',
      buyerPhoneNumber: "9876543210''1''1''0''INR''900",
      amount: '50000000',
      productDescription: 'Gold',
    });
    const checksum = legacyChecksum(merchant.secretKey, form);
    const at = (k: string) => form.findIndex(([n]) => n === k);
    const values = form.flatMap(([, v]) => v.split("''"));
    // Every name where the kit posts it: the phone's parts fill txnType..amount, the values they pushed merged into merchantIpAddress.
    const mip = at('merchantIpAddress');
    const shifted = [...values.slice(0, mip), values.slice(mip, mip + 6).join("''"), ...values.slice(mip + 6)];
    const attack: Pairs = [...form.map(([k], i) => [k, shifted[i]!] as [string, string]), ['checksum', checksum]];
    assert.equal(new Map(attack).get('amount'), '900');
    assert.equal(legacyChecksum(merchant.secretKey, attack.slice(0, -1)), checksum, "the same 'v1''v2'... text");
    for (const v of ['', '?v=2', '?v=3']) {
      const posted = await postForm(`${gw.baseUrl}/transact${v}`, attack);
      assert.deepEqual([posted.status, posted.json?.responseCode], [200, '109'], posted.text);
      // The quote rule refuses it, naming the field the pushed values were merged into.
      assert.match(posted.json.responseDescription, /merchantIpAddress: holds a single quote/, posted.text);
    }
    assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null, 'no order');
  });

  it('a value holding a single quote, signed raw, is refused naming it: its text splits more than one way', async () => {
    const orderId = newOrderId('qt');
    const form = kitForm(KIT_FORMS.php, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      returnUrl: 'http://localhost/zp/response.php',
      buyerLastName: "D'Souza",
      amount: '10000',
    });
    const posted = await postForm(`${gw.baseUrl}/transact`, withChecksum(form, legacyChecksum(merchant.secretKey, form)));
    assert.deepEqual([posted.status, posted.json?.responseCode], [200, '109'], posted.text);
    assert.match(posted.json.responseDescription, /buyerLastName/);
    // Signed as the PHP kits sign (the quote stripped), the same form opens the page.
    const sanitized = await postForm(
      `${gw.baseUrl}/transact`,
      withChecksum(form, legacyChecksum(merchant.secretKey, form, phpSanitize)),
    );
    assert.equal(sanitized.status, 303, sanitized.text);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))!.buyerName, 'DSouza');
  });
});
