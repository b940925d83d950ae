import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { chromiumPath, launchChromium, screenshotPath, SKIP_MESSAGE } from '../support/browser';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { createLinks, linkEntry, newBatchId } from '../support/payment-links';
import { paymentFinished, storedTransaction } from '../support/payments';

/**
 * Card payment of a link against a bank over http (the simulator) in headless Chromium, JavaScript
 * off: the link page has no card field, the payer goes to the bank's page (another origin, which the
 * page's form-action allows), types the card there and comes back to the gateway's result page.
 */
describe('Payment link paid by card at the bank (BANK_CONNECTOR=http, headless Chromium)', function () {
  this.timeout(90_000);
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

  it('sends the payer to the bank page and back; the card never touches a page of ours', async () => {
    const merchant = await gw.newMerchant('Meera Textiles');
    const entry = linkEntry({ amount: 120 });
    const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: [entry] });
    const context = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`));

    await page.goto(res.json.data[0].link);
    assert.equal(await page.locator('input[name="cardNumber"]').count(), 0, 'no card field on the link page');
    await page.getByRole('button', { name: /by card/ }).click();
    await page.waitForURL((u) => u.href.startsWith(gw.bank!.url));
    await page.getByLabel('Card number').fill('4012 0010 3714 1112');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((u) => u.href.startsWith(`${gw.rt.config.http.publicBaseUrl}/bank/v1/return/`));
    await paymentFinished(gw, merchant.merchantIdentifier, entry.orderId as string);
    await page.reload();
    await page.getByText('Payment received').waitFor();
    await page.screenshot({ path: screenshotPath('bank-redirect-returned.png') });

    const t = await storedTransaction(gw, merchant.merchantIdentifier, entry.orderId as string);
    assert.equal(t?.status, 'Success');
    assert.equal(t?.instrument.kind === 'CARD' && t.instrument.cardToken, '401200XXXXXX1112');
    const toGateway = requests.filter((r) => r.includes(gw.rt.config.http.publicBaseUrl));
    assert.ok(toGateway.length > 0);
    assert.ok(
      toGateway.every((r) => !/4012\D*0010/.test(r)),
      'no request to the gateway carried the card number',
    );
    await context.close();
  });
});
