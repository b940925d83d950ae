import { strict as assert } from 'node:assert';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { chromiumPath, launchChromium, screenshotPath, SKIP_MESSAGE } from '../../../test/support/browser';
import { startTestGateway, type TestGateway } from '../../../test/support/gateway';
import { deliveryResult } from '../../../test/support/deliveries';
import { webhooksTo } from '../../../sdk/test/gateway';
import { createShop } from '../shop';

/**
 * The example shop end to end in headless Chromium against a real gateway: buy, pay on the hosted
 * checkout page with a sandbox instrument, come back to the shop (signed return verified), the
 * webhook arrives and verifies, the order is refunded, and the day's ledger downloads as CSV.
 */
describe('Example shop (examples/shop) in a browser against the gateway', function () {
  this.timeout(180_000);
  let browser: Browser | undefined;
  let gw: TestGateway;
  let server: Server;
  let shopUrl: string;
  let merchantIdentifier: string;

  before(async function () {
    const executable = chromiumPath();
    if (!executable) {
      console.warn(`    ${SKIP_MESSAGE}`);
      this.skip();
    }
    gw = await startTestGateway();
    const merchant = await gw.newMerchant('Chai Shop');
    merchantIdentifier = merchant.merchantIdentifier;
    // The shop's address is known once it listens, so the server comes first and the shop after.
    let shop: RequestListener = (_req, res) => res.writeHead(503).end();
    server = createServer((req, res) => shop(req, res)).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    shopUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const webhookSigningSecret = await webhooksTo(gw, merchant.merchantIdentifier, `${shopUrl}/webhooks/gateway`, 'form');
    shop = createShop({ baseUrl: gw.baseUrl, ...merchant, shopUrl, webhookSigningSecret });
    browser = await launchChromium(executable!);
  });
  after(async () => {
    await browser?.close();
    server?.close();
    await gw?.stop();
  });

  it('pays by UPI on the hosted checkout, gets the webhook, refunds, and downloads the ledger', async () => {
    const page = await (await browser!.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(shopUrl);
    await page.locator('#buy').click();
    await page.waitForURL(/\/checkout\/[A-Za-z0-9_-]{32}$/);
    assert.equal(await page.locator('#amount').innerText(), '₹900.00');
    await page.getByLabel('UPI ID').fill('success@sandbox');
    await page.getByRole('button', { name: 'Pay ₹900.00 by UPI' }).click();
    // The gateway posts the signed result back to the shop, which shows the order.
    await page.waitForURL(new RegExp(`^${shopUrl}/orders/shop-`), { timeout: 60_000 });
    const orderId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    assert.equal(await page.locator('#returned').innerText(), '100');
    assert.equal(await page.locator('#txn-status').innerText(), '0');

    for (let i = 0; i < 100 && (await page.locator('#webhook').innerText()) !== 'received 100'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      await page.locator('#reload').click();
    }
    assert.equal((await deliveryResult(gw, `rt:${merchantIdentifier}:${orderId}`)).state, 'delivered');
    assert.equal(await page.locator('#webhook').innerText(), 'received 100');
    await page.screenshot({ path: screenshotPath('shop-paid.png'), fullPage: true });

    await page.locator('#refund').click();
    await page.waitForURL(new RegExp(`/orders/${orderId}$`));
    for (let i = 0; i < 100 && !(await page.locator('#refunds').innerText()).includes('SUCCESS'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      await page.locator('#reload').click();
    }
    assert.match(await page.locator('#refunds').innerText(), new RegExp(`${orderId}-r1: ₹900.00 SUCCESS`));
    assert.equal(await page.locator('#txn-status').innerText(), '3');
    await page.screenshot({ path: screenshotPath('shop-refunded.png'), fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: "Today's ledger (CSV)" }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^ledger-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    const lines = csv.trim().split('\n');
    assert.equal(lines[0], 'orderId,txnId,status,amountInRupees,paymentSource,txnInitiatedDate');
    const row = lines.find((l) => l.startsWith(`${orderId},`));
    assert.ok(row, csv);
    assert.match(row!, /,SUCCESS,900,/);
  });
});
