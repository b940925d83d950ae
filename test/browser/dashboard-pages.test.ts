import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { assertAccessible } from '../support/axe';
import { chromiumOrSkip, screenshotPath } from '../support/browser';
import { accept, DASHBOARD_PASSWORD, FormClient, invite, newEmail } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { refundFinished } from '../support/refunds';

/**
 * The dashboard's transactions, refunds, overview, payment links, mandates and downloads in
 * headless Chromium with JavaScript off, as a person uses them; axe-core on every page.
 */
describe('Merchant dashboard pages in a browser (headless Chromium)', function () {
  this.timeout(180_000);
  let browser: Browser | undefined;
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async function () {
    browser = await chromiumOrSkip(this);
  });
  after(async () => browser?.close());
  beforeEach(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Godavari Handlooms')));

  /** An owner (invited and joined beforehand) signs in on the sign-in page. */
  async function signedIn(viewport = { width: 1280, height: 900 }): Promise<Page> {
    const email = newEmail('owner');
    assert.equal((await accept(new FormClient(gw.baseUrl), await invite(gw, merchant.merchantIdentifier, email))).status, 303);
    const context = await browser!.newContext({ javaScriptEnabled: false, viewport, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${gw.baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(DASHBOARD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return page;
  }
  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();

  async function paidOrder(): Promise<string> {
    const orderId = newOrderId('web');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return orderId;
  }

  it('finds a paid order, refunds part of it, and the status API shows the refund', async () => {
    const orderId = await paidOrder();
    const page = await signedIn();
    await assertAccessible(page, 'overview');
    await page.screenshot({ path: screenshotPath('dashboard-overview-charts.png'), fullPage: true });

    await nav(page, 'Transactions');
    await page.getByLabel('orderId').fill(orderId);
    await page.getByRole('button', { name: 'Search' }).click();
    await assertAccessible(page, 'transactions search');
    await page.screenshot({ path: screenshotPath('dashboard-transactions.png'), fullPage: true });
    await page.getByRole('link', { name: orderId }).click();
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    assert.match(await page.locator('#timeline').innerText(), /Bank answered: paid/);
    await assertAccessible(page, 'order page');

    await page.getByLabel('Amount in rupees').fill('30');
    await page.getByLabel('Reason (5 to 30 letters, digits, spaces)').fill('one item returned');
    await page.getByRole('button', { name: 'Refund this amount' }).click();
    assert.match(await page.getByRole('status').innerText(), /Refund started/);
    await assertAccessible(page, 'order page after a refund');
    await page.screenshot({ path: screenshotPath('dashboard-order-refunded.png'), fullPage: true });

    const order = async () =>
      (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json.data
        .orders[0];
    const refundId = (await order()).refundDetails[0].merchantRefId as string;
    await refundFinished(gw, merchant.merchantIdentifier, orderId, refundId);
    const refunded = await order();
    assert.equal(refunded.txnStatus, '4');
    assert.deepEqual(
      refunded.refundDetails.map((r: Record<string, string>) => [r.amount, r.refundStatus]),
      [['3000', 'SUCCESS']],
    );

    // More than what remains: the page says so and nothing changes.
    await page.reload();
    await page.getByLabel('Amount in rupees').fill('70.01');
    await page.getByLabel('Reason (5 to 30 letters, digits, spaces)').fill('too much');
    await page.getByRole('button', { name: 'Refund this amount' }).click();
    assert.match(await page.getByRole('alert').innerText(), /more than what remains to refund \(₹70\.00\)/);
    await assertAccessible(page, 'order page with a refused refund');
    assert.equal((await order()).refundDetails.length, 1);
  });

  it('downloads the day’s ledger as CSV and reads it', async () => {
    const orderId = await paidOrder();
    const page = await signedIn();
    await nav(page, 'Downloads');
    await assertAccessible(page, 'downloads');
    await page.screenshot({ path: screenshotPath('dashboard-downloads.png'), fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the ledger (CSV)' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^ledger-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parse(await readFile((await download.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((r) => [r.orderId, r.status, r.amountInRupees]),
      [[orderId, 'SUCCESS', '100']],
    );
  });

  it('creates a payment link, pays it on the link’s page, and sees it paid; overview and mandates at a phone’s width', async function () {
    if (gw.bank) this.skip(); // the card is typed on the sandbox page here (the simulator's page is tested elsewhere)
    const page = await signedIn({ width: 390, height: 844 });
    await nav(page, 'Payment links');
    const orderId = newOrderId('link');
    await page.getByLabel('orderId').fill(orderId);
    await page.getByLabel('Amount in rupees (at least 9)').fill('149.50');
    await page.getByLabel('What is paid for').fill('Handloom saree');
    await page.getByRole('button', { name: 'Create the link' }).click();
    const link = await page.locator('#created-link').getAttribute('href');
    assert.ok(link);
    await assertAccessible(page, 'payment links with a new link');
    await page.screenshot({ path: screenshotPath('dashboard-links-phone.png'), fullPage: true });

    const payer = await browser!.newPage({ javaScriptEnabled: false });
    // The link names PUBLIC_BASE_URL; the test gateway listens on its own port.
    await payer.goto(`${gw.baseUrl}${new URL(link).pathname}`);
    await payer.getByLabel('Card number').fill('4012001037141112');
    await payer.getByRole('button', { name: /by card/ }).click();
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    await payer.close();

    await page.reload();
    assert.equal(await page.locator('#links tbody tr .link-status').innerText(), 'Paid');
    await assertAccessible(page, 'payment links');

    await nav(page, 'Overview');
    assert.equal(await page.locator('#today-count').innerText(), '1');
    assert.equal(await page.locator('#today-volume').innerText(), '₹149.50');
    const width = await page.locator('html').evaluate((html) => (html as unknown as { scrollWidth: number }).scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling at a phone's width (${width}px)`);
    await assertAccessible(page, 'overview at a phone’s width');
    await page.screenshot({ path: screenshotPath('dashboard-overview-charts-phone.png'), fullPage: true });

    await nav(page, 'Mandates');
    await assertAccessible(page, 'mandates');
    await page.screenshot({ path: screenshotPath('dashboard-mandates-phone.png'), fullPage: true });
  });
});
