import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { assertAccessible } from '../support/axe';
import { chromiumOrSkip, screenshotPath } from '../support/browser';
import { DASHBOARD_PASSWORD, invite, newEmail } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { ledger } from '../support/ledger';
import { startReceiver } from '../support/receiver';
import { formatIstDateTime } from '../../src/domain/ist-time';
import { standardWebhookSignature } from '../../src/domain/standard-webhooks';
import { hmacSha256Hex } from '../../src/domain/checksum';

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
    browser = await chromiumOrSkip(this);
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

  it('Developers: creates an API key that the ledger API accepts; rotates the secret key, both keys sign status requests in the overlap, and revokes the previous one at once', async () => {
    const page = await phonePage();
    await joinAndSignIn(page, 'owner');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Developers' }).click();
    assert.equal(await page.locator('#merchant-identifier').innerText(), merchant.merchantIdentifier);
    await assertAccessible(page, 'developers');
    await page.getByLabel('Label of a new key').fill('nightly ledger export');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const apiKey = await page.locator('#new-api-key').innerText();
    await assertAccessible(page, 'developers with a new key');
    await assertFitsPhone(page);
    await page.screenshot({ path: screenshotPath('dashboard-developers-new-key.png'), fullPage: true });
    const day = formatIstDateTime(gw.rt.now()).slice(0, 10);
    const listed = await ledger(gw, apiKey, { startDateTime: day, endDateTime: day, status: 'ALL' });
    // The key is accepted: a page of records, or Zaakpay's 1035 "No record found." (never 100 or 112).
    assert.equal(listed.status, 200, listed.text);
    assert.ok(listed.json.success === true || listed.json.message?.code === '1035', listed.text);
    await page.goto(`${gw.baseUrl}/dashboard/developers`);
    assert.match(await page.getByRole('region', { name: 'Table of API keys' }).innerText(), /nightly ledger export/);

    await page.getByRole('button', { name: 'Rotate secret key' }).click();
    const secretKey = await page.locator('#new-secret-key').innerText();
    assert.match(secretKey, /^[0-9a-f]{32}$/);
    await page.screenshot({ path: screenshotPath('dashboard-developers-secret-rotated.png'), fullPage: true });
    const status = (key: string) =>
      checkStatus(gw.baseUrl, key, { merchantIdentifier: merchant.merchantIdentifier, orderId: 'none-yet' });
    assert.equal((await status(secretKey)).status, 200, 'the new key signs');
    assert.equal((await status(merchant.secretKey)).status, 200, 'the old key still signs inside the overlap');

    await page.getByRole('button', { name: 'Revoke the previous key now' }).click();
    assert.match(await page.getByRole('status').innerText(), /Previous secret key revoked/);
    assert.equal((await status(merchant.secretKey)).status, 401, 'the previous key is refused at once');
    assert.equal((await status(secretKey)).status, 200, 'the current key still signs');
    assert.equal(await page.getByRole('button', { name: 'Revoke the previous key now' }).count(), 0, 'nothing left to revoke');

    const pem = await page.request.get(
      `${gw.baseUrl}/dashboard/developers/encryption-keys/${encodeURIComponent(merchant.encryptionKeyId)}.pem`,
    );
    assert.equal(pem.status(), 200);
    assert.equal(await pem.text(), merchant.publicKeyPem);
  });

  it('Webhooks: sets a loopback URL, sends a test webhook and shows what the receiver answered', async () => {
    const receiver = await startReceiver(() => ({ status: 200, body: 'SUCCESS' }));
    try {
      const page = await phonePage();
      await joinAndSignIn(page, 'owner');
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
      await assertAccessible(page, 'webhooks');
      await page.getByLabel('Webhook URL').fill(receiver.url);
      await page.getByLabel('Body format').selectOption('json');
      await page.getByLabel('Send a settlement.processed webhook when a settlement is paid').check();
      await page.getByRole('button', { name: 'Save webhook settings' }).click();
      assert.equal(await page.locator('#notice').innerText(), 'Webhook settings saved.');
      assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))!.webhookUrl, receiver.url);
      assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))!.settlementWebhook, true, 'opted in');
      assert.ok(await page.getByLabel('Send a settlement.processed webhook when a settlement is paid').isChecked());

      // The signing secret is masked; rotating shows the new one in full, once.
      assert.match(await page.locator('.signing-secret-masked').first().innerText(), /^whsec_•+.{4}$/);
      await page.getByRole('button', { name: 'Rotate signing secret' }).click();
      const secret = await page.locator('#new-signing-secret').innerText();
      assert.match(secret, /^whsec_/);
      await assertAccessible(page, 'webhooks with a new signing secret');

      await page.getByRole('button', { name: 'Send a test webhook' }).click();
      assert.equal(await page.locator('#new-signing-secret').count(), 0, 'shown once only');
      assert.equal(await page.locator('#test-status').innerText(), 'HTTP 200');
      assert.equal(await page.locator('#test-response').innerText(), 'SUCCESS');
      await assertAccessible(page, 'webhooks with a test result');
      await assertFitsPhone(page);
      await page.screenshot({ path: screenshotPath('dashboard-webhooks-test.png'), fullPage: true });
      assert.equal(receiver.calls.length, 1);
      const call = receiver.calls[0]!;
      const body = JSON.parse(call.body) as { txnData: string; checksum: string };
      assert.equal(body.checksum, hmacSha256Hex(merchant.secretKey, body.txnData), 'checksum over txnData with the secret key');
      assert.equal(JSON.parse(body.txnData).txns[0].orderId, 'TEST-WEBHOOK');
      const id = String(call.headers['webhook-id']);
      const expected = standardWebhookSignature(secret, id, Number(call.headers['webhook-timestamp']), call.body);
      assert.ok(
        String(call.headers['webhook-signature']).split(' ').includes(expected),
        'signed with the secret the rotation showed',
      );
    } finally {
      await receiver.close();
    }
  });

  it('a viewer sees keys and webhooks but is offered no change, and a posted change is refused', async () => {
    const page = await phonePage();
    await joinAndSignIn(page, 'viewer');
    await page.goto(`${gw.baseUrl}/dashboard/developers`);
    assert.equal(await page.getByRole('button', { name: /Create API key|Rotate|Revoke/ }).count(), 0);
    await assertAccessible(page, 'developers as a viewer');
    await page.goto(`${gw.baseUrl}/dashboard/webhooks`);
    assert.equal(await page.getByRole('button', { name: /Save|Send|Rotate|Replay|enable/ }).count(), 0);
    assert.ok(await page.getByLabel('Webhook URL').isDisabled());
    await page.screenshot({ path: screenshotPath('dashboard-webhooks-viewer.png'), fullPage: true });
    // The form a developer would see, posted by the viewer's browser with its own session token.
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    const refused = await page.request.post(`${gw.baseUrl}/dashboard/developers/secret-key/rotate`, {
      form: { csrf },
      headers: { origin: gw.baseUrl },
    });
    assert.equal(refused.status(), 403);
    assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))!.secretKey, merchant.secretKey, 'nothing changed');
  });
});
