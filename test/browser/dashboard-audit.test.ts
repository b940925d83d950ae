import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { assertAccessible } from '../support/axe';
import { chromiumOrSkip, screenshotPath } from '../support/browser';
import { accept, DASHBOARD_PASSWORD, FormClient, invite, newEmail } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';

/** The owner's Audit page in headless Chromium with JavaScript off, at a phone's width; axe-core on it. */
describe('Merchant dashboard Audit page in a browser (headless Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser | undefined;
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async function () {
    browser = await chromiumOrSkip(this);
  });
  after(async () => browser?.close());
  beforeEach(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Sabarmati Leather')));

  /** A user of the role (invited and joined beforehand) signs in on the sign-in page at a phone's width. */
  async function signedIn(role: 'owner' | 'developer'): Promise<{ page: Page; email: string }> {
    const email = newEmail(role);
    assert.equal(
      (await accept(new FormClient(gw.baseUrl), await invite(gw, merchant.merchantIdentifier, email, role))).status,
      303,
    );
    const context = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${gw.baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(DASHBOARD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return { page, email };
  }
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

  it("an owner's changes are listed on the Audit page, newest first, with who and from where; a developer has no Audit page", async () => {
    const { page, email } = await signedIn('owner');
    const invited = newEmail('viewer');
    await nav(page).getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Email').fill(invited);
    await page.getByLabel('Role', { exact: true }).selectOption('developer');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    await nav(page).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.locator('#new-signing-secret').waitFor();

    await nav(page).getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    const rows = page.getByRole('region', { name: 'Audit trail' }).locator('tbody tr');
    // The owner's two changes, then the operator's invitation that made this owner.
    assert.equal(await rows.count(), 3, (await rows.allInnerTexts()).join('\n'));
    const cells = async (i: number) => (await rows.nth(i).locator('td').allInnerTexts()).map((t) => t.trim());
    const [newest, older, oldest] = [await cells(0), await cells(1), await cells(2)];
    assert.deepEqual(
      newest.slice(1, 4).map((c, i) => (i === 2 ? /^(::ffff:)?127\.0\.0\.1$|^::1$/.test(c) : c)),
      ['webhook.secret_rotated', email, true],
    );
    assert.deepEqual(older.slice(1, 3), ['dashboard.user_invited', email]);
    assert.match(older[4]!, new RegExp(`email: ${invited.replace(/[.+]/g, '\\$&')}`));
    assert.match(older[4]!, /role: developer/);
    assert.deepEqual(oldest.slice(1, 3), ['dashboard.user_invited', 'operator ops-token']);
    assert.match(oldest[4]!, new RegExp(`email: ${email.replace(/[.+]/g, '\\$&')}`));
    assert.equal(await nav(page).locator('[aria-current="page"]').innerText(), 'Audit');
    await assertAccessible(page, 'audit');
    const width = await page.locator('html').evaluate((html) => (html as unknown as { scrollWidth: number }).scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling at a phone's width (${width}px)`);
    await page.screenshot({ path: screenshotPath('dashboard-audit-phone.png'), fullPage: true });

    const dev = await signedIn('developer');
    assert.equal(await nav(dev.page).getByRole('link', { name: 'Audit' }).count(), 0, 'no Audit link for a developer');
    const refused = await dev.page.goto(`${gw.baseUrl}/dashboard/audit`);
    assert.equal(refused?.status(), 403);
    assert.match(await dev.page.locator('main').innerText(), /cannot do this/);
  });
});
