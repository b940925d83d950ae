import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { assertAccessible } from '../support/axe';
import { chromiumPath, launchChromium, screenshotPath, SKIP_MESSAGE } from '../support/browser';
import { DASHBOARD_PASSWORD, invite, newEmail } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';

/**
 * The merchant dashboard in headless Chromium as a person uses it, at a phone's width and with
 * JavaScript off (no page needs it); every page checked with axe-core.
 */
describe('Merchant dashboard in a browser (headless Chromium)', function () {
  this.timeout(120_000);
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
  beforeEach(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Godavari Handlooms')));

  async function phonePage(): Promise<Page> {
    const context = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    return context.newPage();
  }

  const assertFitsPhone = async (page: Page) => {
    const width = await page.locator('html').evaluate((html) => (html as unknown as { scrollWidth: number }).scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling at a phone's width (${width}px)`);
  };

  /** The invited person sets a password on the invitation page, then signs in. */
  async function joinAndSignIn(page: Page, role: 'owner' | 'developer' | 'viewer' = 'owner') {
    const email = newEmail(role);
    await page.goto(await invite(gw, merchant.merchantIdentifier, email, role));
    await assertAccessible(page, 'invitation page');
    await page.getByLabel('New password').fill(DASHBOARD_PASSWORD);
    await page.getByLabel('The same password again').fill(DASHBOARD_PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(DASHBOARD_PASSWORD);
    await assertAccessible(page, 'sign-in page');
    await page.screenshot({ path: screenshotPath('dashboard-sign-in.png'), fullPage: true });
    await page.getByRole('button', { name: 'Sign in' }).click();
    return email;
  }

  it('an invited owner sets a password, signs in at phone width, moves around by the navigation and signs out', async () => {
    const page = await phonePage();
    const email = await joinAndSignIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    assert.equal(await page.locator('#signed-in-as').innerText(), email);
    assert.equal(await page.locator('#merchant-identifier').innerText(), merchant.merchantIdentifier);
    await assertFitsPhone(page);
    await assertAccessible(page, 'overview');
    await page.screenshot({ path: screenshotPath('dashboard-overview-phone.png'), fullPage: true });

    // The keyboard reaches the skip link first, then the navigation.
    await page.keyboard.press('Tab');
    assert.equal(await page.locator(':focus').innerText(), 'Skip to content');

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await assertAccessible(page, 'users');
    await page.getByLabel('Email').fill(newEmail('viewer'));
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    assert.match(await page.locator('#invitation-url').innerText(), /\/dashboard\/invitations\//);
    await assertAccessible(page, 'users with an invitation');
    await assertFitsPhone(page);
    await page.screenshot({ path: screenshotPath('dashboard-users-phone.png'), fullPage: true });

    await page.getByRole('link', { name: 'Your account' }).click();
    await assertAccessible(page, 'account');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(`${gw.baseUrl}/dashboard`);
    assert.match(page.url(), /\/dashboard\/sign-in/, 'signed out: the dashboard sends to the sign-in');
  });

  it('a wrong password shows the message on the page and keeps the email', async () => {
    const page = await phonePage();
    const email = newEmail();
    await page.goto(`${gw.baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.equal(await page.getByRole('alert').innerText(), 'Wrong email or password.');
    assert.equal(await page.getByLabel('Email').inputValue(), email);
    await assertAccessible(page, 'sign-in with an error');
  });
});
