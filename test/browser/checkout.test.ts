import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { chromiumPath, launchChromium, screenshotPath, SKIP_MESSAGE } from '../support/browser';
import {
  expressChecksum,
  expressPairs,
  hmac,
  kitForm,
  KIT_FORMS,
  legacyChecksum,
  v8Data,
  withChecksum,
  type Pairs,
} from '../support/checkout';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { startMerchantSite } from '../support/merchant-site';
import { newOrderId } from '../support/payments';

/**
 * The hosted checkout in headless Chromium, from the merchant's cart page to its returnUrl: the
 * merchant's site (a loopback server) posts the signed request, the payer pays or cancels on the
 * gateway's page, and the browser posts the signed result back, where the merchant's own code
 * (written from the rulings in docs/contributors/design.md) verifies the checksum. With JavaScript off (the payer presses the
 * return button) and on (the return submits itself). Screenshots go to test-output/.
 */
describe('Hosted checkout in a browser (headless Chromium): cart -> checkout page -> signed return', function () {
  this.timeout(120_000);
  let browser: Browser | undefined;
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let site: Awaited<ReturnType<typeof startMerchantSite>>;

  before(async function () {
    const executable = chromiumPath();
    if (!executable) {
      console.warn(`    ${SKIP_MESSAGE}`);
      this.skip();
    }
    browser = await launchChromium(executable!);
  });
  after(async () => browser?.close());
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Chai Point'));
    site = await startMerchantSite(merchant.secretKey);
  });
  afterEach(async () => site?.close());

  async function phone(javaScriptEnabled: boolean): Promise<Page> {
    const context = await browser!.newContext({ javaScriptEnabled, viewport: { width: 390, height: 844 } });
    return context.newPage();
  }
  const statusOf = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json.data
      .orders[0];

  /** The cart page of a /transactU?v=8 checkout, opened and its Pay now pressed: the browser is on the checkout page. */
  async function toCheckout(page: Page, orderId: string, o: { orderDetail?: object; paymentInstrument?: object } = {}) {
    const data = JSON.stringify(v8Data(merchant, orderId, { returnUrl: `${site.returnUrl}?cart=42`, ...o }));
    const fields: Pairs = [
      ['data', data],
      ['checksum', hmac(merchant.secretKey, data)],
    ];
    await page.goto(site.shop(orderId, `${gw.baseUrl}/transactU?v=8`, fields));
    await page.locator('#pay-now').click();
    await page.waitForURL(/\/checkout\/[A-Za-z0-9_-]{32}$/);
  }

  /** With script off the payer presses the return button; with it on the return submits itself. */
  async function returnToMerchant(page: Page, javaScript: boolean, shot: string) {
    if (!javaScript) {
      await page.locator('#result').waitFor({ timeout: 30_000 });
      await page.screenshot({ path: screenshotPath(`${shot}-result.png`), fullPage: true });
      await page.locator('#return-button').click();
    }
    await page.waitForURL(`${site.returnUrl}?cart=42`, { timeout: 30_000 });
    assert.equal(await page.locator('#verified').innerText(), 'checksum verified');
    await page.screenshot({ path: screenshotPath(`${shot}-returned.png`), fullPage: true });
  }

  function onlyReturn(orderId: string) {
    const posts = site.posts.filter((p) => new Map(p.fields).get('orderId') === orderId);
    assert.equal(posts.length, 1, 'the result is posted back exactly once');
    assert.ok(posts[0]!.verified, 'the merchant verified the checksum');
    assert.equal(posts[0]!.url, '/response?cart=42', "returnUrl's query string is kept");
    return new Map(posts[0]!.fields);
  }

  for (const javaScript of [false, true]) {
    const js = javaScript ? 'js-on' : 'js-off';
    describe(`JavaScript ${javaScript ? 'on' : 'off'}`, () => {
      it('pays by UPI ID', async () => {
        const orderId = newOrderId('upi');
        const page = await phone(javaScript);
        await toCheckout(page, orderId);
        assert.equal(await page.locator('#amount').innerText(), '₹250.50');
        assert.match(await page.locator('h1').innerText(), /Pay Chai Point/);
        await page.screenshot({ path: screenshotPath(`checkout-${js}-open.png`), fullPage: true });
        await page.getByLabel('UPI ID').fill('success@sandbox');
        await page.getByRole('button', { name: 'Pay ₹250.50 by UPI' }).click();
        await returnToMerchant(page, javaScript, `checkout-${js}-upi`);
        const back = onlyReturn(orderId);
        assert.equal(back.get('responseCode'), '100');
        assert.equal(back.get('paymentMode'), 'UPI');
        assert.equal((await statusOf(orderId)).txnStatus, '0');
      });

      it('pays by card, and a declined card returns its decline', async () => {
        const paid = newOrderId('card');
        const page = await phone(javaScript);
        await toCheckout(page, paid, { paymentInstrument: { paymentMode: 'card' } });
        assert.equal(await page.getByLabel('UPI ID').count(), 0, 'paymentMode card offers the card only');
        await page.getByLabel('Card number').fill('4012001037141112');
        await page.getByRole('button', { name: /by card/ }).click();
        await returnToMerchant(page, javaScript, `checkout-${js}-card`);
        assert.equal(onlyReturn(paid).get('cardToken'), '401200XXXXXX1112');

        const declined = newOrderId('decline');
        await toCheckout(page, declined);
        await page.getByLabel('Card number').fill('4000000000000002');
        await page.getByRole('button', { name: /by card/ }).click();
        await returnToMerchant(page, javaScript, `checkout-${js}-declined`);
        assert.equal(onlyReturn(declined).get('responseCode'), '400');
        assert.equal((await statusOf(declined)).txnStatus, '1');
      });

      it('pays by net banking', async () => {
        const orderId = newOrderId('nb');
        const page = await phone(javaScript);
        await toCheckout(page, orderId, { paymentInstrument: { paymentMode: 'netbanking', netbanking: { bankid: 'SBIN' } } });
        await page.getByRole('button', { name: /by net banking/ }).click();
        await returnToMerchant(page, javaScript, `checkout-${js}-netbanking`);
        const back = onlyReturn(orderId);
        assert.equal(back.get('bankid'), 'SBIN');
        assert.equal(back.get('paymentMode'), 'Net Banking');
      });

      it('a cancel returns 102 once; the page shown again does not post it again', async () => {
        const orderId = newOrderId('cancel');
        const page = await phone(javaScript);
        await toCheckout(page, orderId);
        const checkoutUrl = page.url();
        await page.locator('#cancel').click();
        await returnToMerchant(page, javaScript, `checkout-${js}-cancelled`);
        assert.equal(onlyReturn(orderId).get('responseCode'), '102');
        // Back to the gateway's page (a reload, the back button): it shows the result, and posts nothing by itself.
        await page.goto(checkoutUrl);
        await page.locator('#result').waitFor();
        assert.equal(await page.locator('#result').innerText(), 'Payment cancelled');
        await page.waitForTimeout(500);
        onlyReturn(orderId);
        assert.equal((await statusOf(orderId)).responseCode, '102');
      });
    });
  }

  it("escapes what the merchant sent on every page, and the return's checksum covers the exact text", async () => {
    const orderId = newOrderId('esc');
    const description = `<b>"Tea" & 'cake'</b> <script>alert(1)</script>`;
    const page = await phone(true);
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await toCheckout(page, orderId, { orderDetail: { productDescription: description, product1Description: 'x"><img src=x>' } });
    assert.ok((await page.locator('main').innerText()).includes(description), 'shown as text');
    await page.getByLabel('UPI ID').fill('failure@sandbox');
    await page.getByRole('button', { name: /by UPI/ }).click();
    await returnToMerchant(page, true, 'checkout-escaped');
    const back = onlyReturn(orderId);
    assert.equal(back.get('productDescription'), description);
    assert.equal(back.get('product1Description'), 'x"><img src=x>');
    assert.equal(dialogs, 0, 'no script of the merchant ran');
  });

  it('the express (V7) and legacy forms, as the kits post them, return what their kits verify', async () => {
    const v7 = await startMerchantSite(merchant.secretKey, 'V7');
    const legacy = await startMerchantSite(merchant.secretKey, 'legacy');
    try {
      const page = await phone(true);
      const expressId = newOrderId('v7');
      const pairs = expressPairs(merchant, expressId, [['returnUrl', v7.returnUrl]]);
      await page.goto(
        v7.shop(
          expressId,
          `${gw.baseUrl}/api/paymentTransact/V7`,
          withChecksum(pairs, expressChecksum(merchant.secretKey, pairs)),
        ),
      );
      await page.locator('#pay-now').click();
      await page.getByLabel('Net banking').selectOption('SBIN');
      await page.getByRole('button', { name: /by net banking/ }).click();
      await page.waitForURL(v7.returnUrl);
      assert.equal(await page.locator('#verified').innerText(), 'checksum verified');
      assert.equal(v7.posts.length, 1);

      const legacyId = newOrderId('lg');
      const form = kitForm(KIT_FORMS.wooCommerce20, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: legacyId,
        returnUrl: legacy.returnUrl,
        amount: '10000',
        productDescription: 'Zaakpay subscription fee',
      });
      await page.goto(
        legacy.shop(legacyId, `${gw.baseUrl}/transact?v=2`, withChecksum(form, legacyChecksum(merchant.secretKey, form))),
      );
      await page.locator('#pay-now').click();
      await page.locator('#cancel').click();
      await page.waitForURL(legacy.returnUrl);
      assert.equal(await page.locator('#verified').innerText(), 'checksum verified');
      assert.deepEqual(
        legacy.posts[0]!.fields.map(([k]) => k),
        ['amount', 'orderId', 'responseCode', 'responseDescription', 'checksum'],
      );
      await page.screenshot({ path: screenshotPath('checkout-legacy-returned.png'), fullPage: true });
    } finally {
      await v7.close();
      await legacy.close();
    }
  });
});

/**
 * Against a bank over http (BANK_CONNECTOR=http, the bank simulator), the hosted checkout hands the
 * payer to the bank's own page as the link page does: no card field on our page, the card typed at
 * the bank, net banking approved there; the bank sends the payer back to the gateway, whose checkout
 * page returns the signed result to the merchant.
 */
describe('Hosted checkout against a bank over http (bank simulator, headless Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser | undefined;
  let gw: TestGateway;

  before(async function () {
    const executable = chromiumPath();
    if (!executable) {
      console.warn(`    ${SKIP_MESSAGE}`);
      this.skip();
    }
    browser = await launchChromium(executable!);
    gw = await startTestGateway({ BANK_TIMEOUT_SECONDS: '30' }, { bank: 'simulator' });
  });
  after(async () => {
    await browser?.close();
    await gw?.stop();
  });

  for (const javaScript of [false, true]) {
    it(`card at the bank's page, then net banking there; each result returned signed (JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      const merchant = await gw.newMerchant('Chai Point');
      const site = await startMerchantSite(merchant.secretKey);
      const context = await browser!.newContext({ javaScriptEnabled: javaScript, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`));
      const checkout = async (orderId: string) => {
        const data = JSON.stringify(v8Data(merchant, orderId, { returnUrl: site.returnUrl }));
        await page.goto(
          site.shop(orderId, `${gw.baseUrl}/transactU?v=8`, [
            ['data', data],
            ['checksum', hmac(merchant.secretKey, data)],
          ]),
        );
        await page.locator('#pay-now').click();
        await page.waitForURL(/\/checkout\/[A-Za-z0-9_-]{32}$/);
      };
      const back = async () => {
        if (!javaScript) {
          await page.locator('#result').waitFor({ timeout: 30_000 });
          await page.locator('#return-button').click();
        }
        await page.waitForURL(site.returnUrl, { timeout: 30_000 });
        assert.equal(await page.locator('#verified').innerText(), 'checksum verified');
      };
      try {
        const byCard = newOrderId('bankcard');
        await checkout(byCard);
        assert.equal(await page.locator('input[name="cardNumber"]').count(), 0, 'no card field on the checkout page');
        await page.getByRole('button', { name: /by card/ }).click();
        await page.waitForURL((u) => u.href.startsWith(gw.bank!.url));
        await page.getByLabel('Card number').fill('4012 0010 3714 1112');
        await page.getByRole('button', { name: 'Pay', exact: true }).click();
        await back();
        await page.screenshot({
          path: screenshotPath(`checkout-bank-card-${javaScript ? 'js-on' : 'js-off'}.png`),
          fullPage: true,
        });
        const card = new Map(site.posts.find((p) => new Map(p.fields).get('orderId') === byCard)!.fields);
        assert.equal(card.get('responseCode'), '100');
        assert.equal(card.get('cardToken'), '401200XXXXXX1112');

        const byBank = newOrderId('banknb');
        await checkout(byBank);
        await page.getByLabel('Net banking').selectOption('FAIL');
        await page.getByRole('button', { name: /by net banking/ }).click();
        await page.waitForURL((u) => u.href.startsWith(gw.bank!.url));
        await page.getByRole('button', { name: 'Approve' }).click();
        await back();
        const nb = new Map(site.posts.find((p) => new Map(p.fields).get('orderId') === byBank)!.fields);
        assert.notEqual(nb.get('responseCode'), '100');
        assert.equal(site.posts.length, 2, 'each result posted back once');
        assert.ok(site.posts.every((p) => p.verified));
        assert.ok(
          requests.filter((r) => r.includes(gw.baseUrl)).every((r) => !/4012\D*0010/.test(r)),
          'no request to the gateway carried the card number',
        );
      } finally {
        await context.close();
        await site.close();
      }
    });
  }
});
