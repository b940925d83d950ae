import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { chromiumPath, launchChromium, screenshotPath, SKIP_MESSAGE } from '../support/browser';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { createLinks, linkEntry, linkExpireBy, newBatchId } from '../support/payment-links';

/**
 * The hosted payment page in headless Chromium, as a payer on a phone sees it, with JavaScript off
 * (the page must not need it). The links' addresses use PUBLIC_BASE_URL, which the test gateway
 * does not listen on, so the browser opens the same path on the gateway's address.
 */
describe('Payment link page GET /pl/:token and its form POST /pl/:token/pay in a browser (headless Chromium)', function () {
  this.timeout(90_000);
  let browser: Browser | undefined;
  let gw: TestGateway;
  let merchant: MerchantCredentials;

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
    ({ gw, merchant } = await gatewayWithNewMerchant('Meera Textiles'));
  });

  async function newLink(overrides: Record<string, unknown> = {}) {
    const entry = linkEntry(overrides);
    const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: [entry] });
    return { entry, url: `${gw.baseUrl}${new URL(res.json.data[0].link).pathname}` };
  }
  async function phonePage() {
    const context = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    return context.newPage();
  }
  const statusOf = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json.data
      .orders[0];

  it('shows amount and QR, pays with success@sandbox, shows success; the status API says Success', async () => {
    const { entry, url } = await newLink();
    const page = await phonePage();
    const opened = await page.goto(url);
    assert.equal(opened!.status(), 200);
    assert.equal(await page.locator('#amount').innerText(), '₹249.50');
    assert.match(await page.locator('h1').innerText(), /Pay Meera Textiles/);
    const qrWidth = await page.locator('img.qr').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    assert.equal(qrWidth, 220, 'the QR image is rendered');
    await page.screenshot({ path: screenshotPath('payment-link-open.png'), fullPage: true });

    await page.getByLabel('UPI ID').fill('success@sandbox');
    await page.getByRole('button', { name: 'Pay ₹249.50 by UPI' }).click();
    // The processing page refreshes itself (meta refresh) until the result is there.
    await page.locator('#result').waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('#result').innerText(), 'Payment successful');
    await page.screenshot({ path: screenshotPath('payment-link-paid.png'), fullPage: true });
    const order = await statusOf(entry.orderId as string);
    assert.equal(order.txnStatus, '0');
    assert.equal(await page.locator('#reference').innerText(), order.orderDetail.txnId);
  });

  it('a declined card shows the decline', async () => {
    const { entry, url } = await newLink();
    const page = await phonePage();
    await page.goto(url);
    await page.getByLabel('Card number').fill('4000000000000002');
    await page.getByRole('button', { name: /by card/ }).click();
    await page.locator('#result').waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('#result').innerText(), 'Payment declined');
    await page.screenshot({ path: screenshotPath('payment-link-declined.png'), fullPage: true });
    assert.equal((await statusOf(entry.orderId as string)).txnStatus, '1');
  });

  it('a bad instrument shows the error on the page', async () => {
    const { url } = await newLink();
    const page = await phonePage();
    await page.goto(url);
    await page.getByLabel('UPI ID').fill('someone@okbank');
    await page.getByRole('button', { name: /by UPI/ }).click();
    assert.match(await page.locator('#error').innerText(), /payerVpa must be one of/);
  });

  it('an expired link shows expiry with 410', async () => {
    const { entry, url } = await newLink({ linkExpireBy: linkExpireBy(2_000) });
    for (let i = 0; i < 100 && (await statusOf(entry.orderId as string)).txnStatus === '2'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const page = await phonePage();
    const opened = await page.goto(url);
    assert.equal(opened!.status(), 410);
    assert.equal(await page.locator('#result').innerText(), 'This payment link has expired');
    await page.screenshot({ path: screenshotPath('payment-link-expired.png'), fullPage: true });
  });
});
