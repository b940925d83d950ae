import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { assertAccessible } from '../support/axe';
import { chromiumOrSkip, screenshotPath } from '../support/browser';
import { accept, DASHBOARD_PASSWORD, FormClient, invite, newEmail } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { seedPaidSettlement } from '../support/settlements';

/**
 * Settlements in headless Chromium with JavaScript off, as an owner uses them: the bank account
 * form, the settlements list, a settlement's lines and CSV, an order's settlement state; axe-core
 * on every page.
 */
describe('Merchant dashboard: settlements in a browser (headless Chromium)', function () {
  this.timeout(180_000);
  let browser: Browser | undefined;
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async function () {
    browser = await chromiumOrSkip(this);
  });
  after(async () => browser?.close());
  beforeEach(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Kaveri Crafts')));

  async function signedIn(role: 'owner' | 'viewer' = 'owner'): Promise<Page> {
    const email = newEmail(role);
    assert.equal(
      (await accept(new FormClient(gw.baseUrl), await invite(gw, merchant.merchantIdentifier, email, role))).status,
      303,
    );
    const context = await browser!.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
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

  it('an owner sets the bank account with their password, changes it, and every owner sees the change', async () => {
    const page = await signedIn('owner');
    await nav(page, 'Bank account');
    await page.getByRole('heading', { name: 'Bank account', level: 1 }).waitFor();
    await assertAccessible(page, 'bank account, none yet');
    const password = page.getByLabel('Your dashboard password (to confirm it is you)');
    assert.equal(await password.getAttribute('type'), 'password');
    await page.getByLabel('IFSC (e.g. HDFC0001234)').fill('HDFC1001234');
    await page.getByLabel('Account number (9 to 18 digits)').fill('50100123456789');
    await page.getByLabel("Account holder's name").fill('Kaveri Crafts');
    await password.fill(DASHBOARD_PASSWORD);
    await page.getByRole('button', { name: 'Save the bank account' }).click();
    assert.match(await page.getByRole('alert').innerText(), /ifsc: must be an IFSC/);
    await assertAccessible(page, 'bank account refused');

    await page.getByLabel('IFSC (e.g. HDFC0001234)').fill('HDFC0001234');
    await page.getByLabel('Account number (9 to 18 digits)').fill('50100123456789');
    await password.fill('not my password');
    await page.getByRole('button', { name: 'Save the bank account' }).click();
    assert.match(await page.getByRole('alert').innerText(), /Wrong password: nothing was changed/);
    assert.equal(await page.locator('#no-account').count(), 1, 'nothing was set');

    await page.getByLabel('Account number (9 to 18 digits)').fill('50100123456789');
    await password.fill(DASHBOARD_PASSWORD);
    await page.getByRole('button', { name: 'Save the bank account' }).click();
    assert.match(await page.getByRole('status').innerText(), /Bank account saved/);
    assert.equal(await page.locator('#account-masked').innerText(), 'XXXXXXXXXX6789');
    assert.ok(!(await page.content()).includes('50100123456789'), 'the number is never shown whole');
    assert.doesNotMatch(await page.locator('#account-change-notice').innerText(), /wait until/, 'a first account does not cool');
    await assertAccessible(page, 'bank account saved');

    await page.getByLabel('IFSC (e.g. HDFC0001234)').fill('HDFC0001234');
    await page.getByLabel('Account number (9 to 18 digits)').fill('60200123454321');
    await page.getByLabel("Account holder's name").fill('Kaveri Crafts');
    await password.fill(DASHBOARD_PASSWORD);
    await page.getByRole('button', { name: 'Save the bank account' }).click();
    assert.equal(await page.locator('#account-masked').innerText(), 'XXXXXXXXXX4321');
    await page.screenshot({ path: screenshotPath('dashboard-bank-account.png'), fullPage: true });

    const other = await signedIn('owner');
    await nav(other, 'Settlements');
    const notice = await other.locator('#account-change-notice').innerText();
    assert.match(notice, /by owner .*: settlements are now paid to the account ending 4321\. Payouts to it wait until/);
    await assertAccessible(other, 'settlements with the account change notice');
  });

  it('a viewer reads settlements, a settlement with its lines and CSV, and the order says settled', async () => {
    const orderId = newOrderId('settled');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const t = (await storedTransaction(gw, merchant.merchantIdentifier, orderId))!;
    await seedPaidSettlement(gw, merchant.merchantIdentifier, [t], { utr: 'UTR2611249999' });

    const page = await signedIn('viewer');
    assert.equal(await page.getByRole('link', { name: 'Bank account', exact: true }).count(), 0, 'a viewer is not offered it');
    await nav(page, 'Settlements');
    await page.getByRole('heading', { name: 'Settlements', level: 1 }).waitFor();
    const row = page.locator('#settlements tbody tr').first();
    assert.match(await row.innerText(), /2026-11-24\s+UTR2611249999\s+₹100\.00\s+₹2\.00\s+₹0\.36\s+₹97\.64\s+Paid/);
    await assertAccessible(page, 'settlements');
    await page.screenshot({ path: screenshotPath('dashboard-settlements.png'), fullPage: true });

    await page.getByRole('link', { name: '2026-11-24' }).click();
    await page.getByRole('heading', { name: 'Settlement of 2026-11-24' }).waitFor();
    assert.equal(await page.locator('#settlement-utr').innerText(), 'UTR2611249999');
    assert.match(await page.locator('#lines').innerText(), new RegExp(t.txnId));
    await assertAccessible(page, 'a settlement');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the lines (CSV)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'settlement-2026-11-24.csv');
    const rows = parse(await readFile((await download.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((r) => [
        r.partner_transaction_id,
        r.client_transaction_id,
        r.settlement_action,
        r.amount,
        r.settlement_amount,
        r.transaction_utr,
      ]),
      [[t.txnId, orderId, 'SALE', '100.00', '97.64', 'UTR2611249999']],
    );

    await page.getByRole('link', { name: orderId }).click();
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    assert.equal(await page.locator('#settlement-state').innerText(), 'Settled on 2026-11-24 with UTR UTR2611249999');
    assert.match(await page.locator('#timeline').innerText(), /Settled on 2026-11-24 with UTR UTR2611249999: ₹97\.64/);
    await assertAccessible(page, 'a settled order');
  });
});
