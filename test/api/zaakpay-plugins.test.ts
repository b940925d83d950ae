import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import {
  awaitResultPage,
  expressChecksum,
  formBody,
  hmac,
  openPage,
  payOnCheckoutPage,
  postForm,
  returnFormOf,
  returnVerifies,
  type Pairs,
} from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import {
  legacyEntries,
  loadPluginFixtures,
  pluginCallForm,
  pluginFields,
  pluginForm,
  pluginReadsReturn,
  type FormContext,
  type PluginEntry,
  type PluginFixture,
} from '../support/plugin-forms';

/**
 * Zaakpay's published shop plugins and kits against the gateway, each form exactly as its plugin
 * posts it (test/fixtures/zaakpay-plugins: its names and order, what its platform adds, its
 * checksum with the merchant's secret): the hosted page opens for that order and amount, the
 * sandbox pays it, the return is posted to the shop, and the plugin's own check of the return
 * (reimplemented from the fixture) calls it paid. Status and update calls are made as the plugins
 * make them.
 */

const AMOUNT = '25050';
const AMOUNT_TEXT = '₹250.50';

/** Where a plugin's return lands: a shop on loopback that keeps each raw POST body, as PHP reads it. */
async function startShop() {
  const received: { path: string; fields: Pairs }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', fields: [...new URLSearchParams(Buffer.concat(chunks).toString('utf8'))] });
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Thank you</title>');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Posts the gateway's return form as the payer's browser does, and answers what the shop received. */
  const deliver = async (action: string, fields: Pairs): Promise<Pairs> => {
    const res = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody(fields),
    });
    assert.equal(res.status, 200);
    await res.text();
    return received.at(-1)!.fields;
  };
  return { base, deliver, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** What a refusal page says, without its markup. */
const refusal = (html: string) =>
  (/<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? html)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A short label for a fixture's entry. */
const labelOf = (fixture: PluginFixture, entry: PluginEntry) =>
  `${fixture.plugin}${entry.variant ? ` [${entry.variant.split(/[:(]/)[0]!.trim()}]` : ''}`;

/** What each plugin's return URL looks like (its query string kept), on the loopback shop. */
function returnUrlOf(shop: string, fixture: PluginFixture, entry: PluginEntry, orderId: string): string | null {
  if (entry.returnUrl === null) return null;
  const paths: Record<string, string> = {
    cscart: `/index.php?dispatch=payment_notification.returnUrl&payment=zaakpay&order_id=${orderId}`,
    xcart: '/payment/cc_zaakpay.php',
    cubecart: '/index.php?_g=rm&type=gateway&cmd=process&module=Zaakpay',
    'virtuemart-2.0': `/index.php?option=com_virtuemart&view=pluginresponse&task=pluginresponsereceived&on=${orderId}&pm=3&orderId=&responseCode=&responseDescription=&checksum=`,
    'woocommerce-2.0': '/shop/?wc-api=WC_Zaakpay',
    magento: '/zaakpay/transact/response',
    zencart: '/index.php?main_page=checkout_process',
    oscommerce: '/checkout_process.php',
  };
  return `${shop}${paths[fixture.name] ?? `/${fixture.name}/response`}`;
}

describe('Zaakpay plugins and kits: each form as its plugin posts it, paid, and its return checked its way', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let shop: Awaited<ReturnType<typeof startShop>>;
  const today = new Date().toISOString().slice(0, 10);

  before(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Plugin Shop'));
    shop = await startShop();
    // VirtueMart 1.2, WHMCS and the JSP kit post no returnUrl: the merchant's default is used.
    await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { defaultReturnUrl: `${shop.base}/default-return` });
  });
  after(() => shop.close());

  const ctxFor = (orderId: string, returnUrl: string | null): FormContext => ({
    merchantIdentifier: merchant.merchantIdentifier,
    secretKey: merchant.secretKey,
    orderId,
    amount: AMOUNT,
    returnUrl: returnUrl ?? '',
    txnDate: today,
  });

  /** Posts the plugin's form as the browser does; the hosted page must open for this order and amount. */
  async function openCheckout(fixture: PluginFixture, entry: PluginEntry, orderId: string) {
    const returnUrl = returnUrlOf(shop.base, fixture, entry, orderId);
    const form = pluginForm(fixture, entry, ctxFor(orderId, returnUrl));
    const posted = await postForm(`${gw.baseUrl}${entry.endpoint}`, form, { browser: true });
    assert.equal(posted.status, 303, `${labelOf(fixture, entry)}: ${posted.status} ${refusal(posted.text)}`);
    const page = await openPage(gw, posted.location!);
    assert.equal(page.status, 200);
    assert.match(page.html, new RegExp(`id="amount">${AMOUNT_TEXT}<`));
    const stored = await gw.rt.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId });
    assert.equal(stored?.amountPaise, Number(AMOUNT));
    return { location: posted.location!, returnUrl: returnUrl ?? `${shop.base}/default-return` };
  }

  /** Pays on the page, follows the return to the shop, and answers what the shop received. */
  async function payAndReturn(location: string, returnUrl: string, payerVpa: string) {
    await payOnCheckoutPage(gw, location, [['payerVpa', payerVpa]]);
    const back = returnFormOf(await awaitResultPage(gw, location));
    assert.equal(back.action, returnUrl, 'the return goes to the returnUrl, its query string kept');
    assert.ok(back.autoSubmits);
    return shop.deliver(back.action, back.fields);
  }

  for (const { fixture, entry } of legacyEntries()) {
    it(`${labelOf(fixture, entry)}: ${entry.endpoint} opens the page, the payment returns and the plugin's own check calls it paid`, async () => {
      const orderId = newOrderId(fixture.name.slice(0, 3)).replace('-', '');
      const { location, returnUrl } = await openCheckout(fixture, entry, orderId);
      const received = await payAndReturn(location, returnUrl, 'success@sandbox');
      const m = new Map(received);
      assert.equal(m.get('orderId'), orderId);
      assert.equal(m.get('responseCode'), '100');
      const verdict = pluginReadsReturn(fixture, received, merchant.secretKey, { amount: AMOUNT });
      if (fixture.name === 'python-kit') {
        // Its check runs over a Python 2 dict's order (orderId, responseDescription, responseCode):
        // no return signed in the fixed order can pass it (docs/merchants/moving-from-zaakpay.md).
        assert.deepEqual(verdict, { verified: false, paid: false });
      } else {
        assert.deepEqual(verdict, { verified: true, paid: true }, `${fixture.returnCheck.rule}: ${JSON.stringify(received)}`);
      }
    });
  }

  it('a declined payment: each plugin’s check verifies the return and does not call it paid', async () => {
    for (const fixture of loadPluginFixtures()) {
      const entry = fixture.entries[0]!;
      if (!Array.isArray(entry.signedFields) || fixture.name === 'python-kit') continue;
      const orderId = newOrderId(`d${fixture.name.slice(0, 3)}`).replace('-', '');
      const { location, returnUrl } = await openCheckout(fixture, entry, orderId);
      const received = await payAndReturn(location, returnUrl, 'failure@sandbox');
      const verdict = pluginReadsReturn(fixture, received, merchant.secretKey, { amount: AMOUNT });
      // VirtueMart 1.2's notify page confirms any order whose return verifies, whatever its code.
      assert.equal(verdict.paid, fixture.name === 'virtuemart-1.2', fixture.plugin);
      // VirtueMart 2 verifies only a description ending in one space: a decline reads "compromised" there.
      assert.equal(verdict.verified, fixture.name !== 'virtuemart-2.0', fixture.plugin);
    }
  });

  /** A paid order of this merchant, through the sandbox. */
  async function paidOrder(): Promise<string> {
    const orderId = newOrderId('plg').replace('-', '');
    await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      amount: Number(AMOUNT),
      payerVpa: 'success@sandbox',
    });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return orderId;
  }
  const parser = new XMLParser({ parseTagValue: false, trimValues: false });
  const xmlPost = async (path: string, pairs: Pairs) => {
    const res = await fetch(`${gw.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody(pairs),
    });
    const text = await res.text();
    return { status: res.status, element: parser.parse(text).zaakpay_response?.response_element ?? {}, text };
  };

  for (const name of ['php-kit', 'jsp-kit']) {
    it(`${name}: its status page (/checktransaction) reads the paid order, its update page (/updatetransaction) refunds it`, async () => {
      const fixture = loadPluginFixtures().find((f) => f.name === name)!;
      const orderId = await paidOrder();
      const base = { merchantIdentifier: merchant.merchantIdentifier, orderId, mode: '0', submitButton: 'Check Status' };
      const status = await xmlPost('/checktransaction', pluginCallForm(fixture, fixture.statusCall!, base, merchant.secretKey));
      assert.equal(status.status, 200, status.text);
      assert.deepEqual([status.element.orderid, status.element.responsecode, status.element.amount], [orderId, '100', AMOUNT]);
      const values = { ...base, updateDesired: '14', updateReason: 'Customer returned it' };
      const refunded = await xmlPost(
        '/updatetransaction',
        pluginCallForm(fixture, fixture.refundCall!, values, merchant.secretKey),
      );
      assert.equal(refunded.status, 200, refunded.text);
      assert.deepEqual([refunded.element.orderid, refunded.element.responsecode], [orderId, '230']);
    });
  }

  it('Magento: its status call reads the order; capture (7) is answered 185 and cancel (8) too, so Magento’s cancel reports a failure', async () => {
    const fixture = loadPluginFixtures().find((f) => f.name === 'magento')!;
    const orderId = await paidOrder();
    const base = { merchantIdentifier: merchant.merchantIdentifier, orderId, mode: '0' };
    const status = await xmlPost('/checktransaction', pluginCallForm(fixture, fixture.statusCall!, base, merchant.secretKey));
    assert.equal(status.status, 200, status.text);
    assert.equal(status.element.responsecode, '100');
    for (const call of fixture.updateCalls!) {
      const answer = await xmlPost(
        '/updatetransaction',
        pluginCallForm(fixture, call, { ...base, ...call.values }, merchant.secretKey),
      );
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.element.responsecode, '185', call.use);
    }
    const t = await gw.rt.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId });
    assert.deepEqual(t?.refunds, [], 'no update desired but 14 and 22 moves money');
  });

  it('Node kit: its V8 form pays and its return verifies; its /checkTxn?v=5 reads the order and its /updateTxn refunds it', async () => {
    const fixture = loadPluginFixtures().find((f) => f.name === 'node-kit')!;
    const entry = fixture.entries[0]!;
    const orderId = newOrderId('nod').replace('-', '');
    const returnUrl = `${shop.base}/response`;
    // Its input page has two inputs named txnDate; body-parser joins them, and the kit posts "<date>,".
    const fields = pluginFields(fixture, entry, { ...ctxFor(orderId, returnUrl), txnDate: `${today},` });
    const posted = await postForm(
      `${gw.baseUrl}${entry.endpoint}`,
      [...fields, ['checksum', expressChecksum(merchant.secretKey, fields)]],
      {
        browser: true,
      },
    );
    assert.equal(posted.status, 303, refusal(posted.text));
    const received = await payAndReturn(posted.location!, returnUrl, 'success@sandbox');
    assert.ok(returnVerifies(merchant.secretKey, 'V8', received), JSON.stringify(received));
    assert.equal(new Map(received).get('responseCode'), '100');

    const status = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, mode: '0', orderDetail: { orderId } });
    const read = await postForm(`${gw.baseUrl}/checkTxn?v=5`, [
      ['data', status],
      ['checksum', hmac(merchant.secretKey, status)],
    ]);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual([read.json.orders[0].orderDetail.orderId, read.json.orders[0].responseCode], [orderId, '100']);
    const refund = JSON.stringify({
      merchantIdentifier: merchant.merchantIdentifier,
      orderDetail: { orderId, amount: '' },
      mode: '0',
      updateDesired: '14',
      updateReason: 'Customer returned it',
    });
    const refunded = await postForm(`${gw.baseUrl}/updateTxn`, [
      ['data', refund],
      ['checksum', hmac(merchant.secretKey, refund)],
    ]);
    assert.equal(refunded.status, 200, refunded.text);
    assert.equal(refunded.json.responseCode, '230', refunded.text);
  });

  it('one plugin’s signed form relabelled with another plugin’s names (osCommerce read as CS-Cart) is refused', async () => {
    const fixtures = loadPluginFixtures();
    const os = fixtures.find((f) => f.name === 'oscommerce')!;
    const cs = fixtures.find((f) => f.name === 'cscart')!;
    const orderId = newOrderId('rel').replace('-', '');
    // The payer typed "INR" as their shipping address and "900" as their shipping city, and the shop
    // signed them: CS-Cart's names put those two values on currency and amount.
    const ctx = { ...ctxFor(orderId, `${shop.base}/checkout_process.php`), typed: { shipToAddress: 'INR', shipToCity: '900' } };
    const signed = pluginForm(os, os.entries[0]!, ctx);
    const relabelled = signed.map(([, v], i) => [cs.entries[0]!.fields[i]!, v] as [string, string]);
    assert.equal(new Map(relabelled).get('amount'), '900');
    const posted = await postForm(`${gw.baseUrl}/transact`, relabelled, { browser: true });
    assert.notEqual(posted.status, 303, 'a page opened for the amount the payer typed');
    assert.equal(await gw.rt.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }), null);
  });
});
