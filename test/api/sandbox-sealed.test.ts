import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { createLinks, linkEntry, linkPath, newBatchId, openLink, payForm } from '../support/payment-links';

/**
 * Where the sandbox does not run (production forces SANDBOX_ENABLED off): no sandbox route answers,
 * and the hosted link page neither shows nor takes a test instrument, so holding a link is not
 * enough to mark it paid. The bank is the simulator over http, as production's acquirer would be.
 */
describe('Sandbox sealed: SANDBOX_ENABLED=false, the bank over http', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => {
    gw = await startTestGateway({ SANDBOX_ENABLED: 'false' }, { bank: 'simulator' });
  });
  after(async () => gw.stop());
  beforeEach(async () => {
    merchant = await gw.newMerchant('Sealed Shop');
  });
  const statusOf = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json.data
      .orders[0];
  const newLink = async () => {
    const entry = linkEntry();
    const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: [entry] });
    return { orderId: entry.orderId as string, path: linkPath(res.json.data[0].link) };
  };

  it('every sandbox route is 404', async () => {
    const routes = [
      ['POST', '/sandbox/v1/payments'],
      ['POST', '/sandbox/v1/qr/pay'],
      ['POST', '/sandbox/v1/mandates/revoke'],
      ['GET', '/sandbox/v1/time'],
      ['POST', '/sandbox/v1/time/skip'],
      ['GET', '/sandbox/v1/payments'],
    ];
    for (const [method, path] of routes) {
      const res = await fetch(`${gw.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': merchant.apiKey },
        ...(method === 'POST'
          ? {
              body: JSON.stringify({
                merchantIdentifier: merchant.merchantIdentifier,
                orderId: 'x1',
                payerVpa: 'success@sandbox',
              }),
            }
          : {}),
      });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
  });

  it('the link page offers no sandbox instrument: a UPI ID field, the card at the bank, no net banking list', async () => {
    const { path } = await newLink();
    const page = await openLink(gw, path);
    assert.equal(page.status, 200);
    for (const test of ['success@sandbox', '4012001037141112', 'SBIN', 'sandbox', 'name="cardNumber"', 'name="bankCode"']) {
      assert.ok(!page.html.includes(test), `the page shows ${test}`);
    }
    assert.match(page.html, /name="payerVpa"/);
    assert.match(page.html, /name="cardAtBank"/);
  });

  it('posting a test instrument is refused and pays nothing: success@sandbox, the test card, SBIN', async () => {
    const { orderId, path } = await newLink();
    for (const fields of <Record<string, string>[]>[
      { payerVpa: 'success@sandbox' },
      { payerVpa: ' SUCCESS@sandbox ' },
      { payerVpa: 'anything@sandbox' },
      { cardNumber: '4012001037141112' },
      { cardNumber: '4012 0010 3714 1112' },
      { bankCode: 'SBIN' },
      { bankCode: 'HDFC' },
      {},
    ]) {
      const page = await openLink(gw, path);
      const res = await payForm(gw, path, { csrf: page.csrf, ...fields }, { cookie: page.cookie });
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.match(await res.text(), /That payment method was not accepted/);
    }
    assert.equal((await statusOf(orderId)).txnStatus, '2', 'still Pending');
    assert.equal((await openLink(gw, path)).status, 200, 'still open');
  });

  it('a real UPI ID goes to the bank (which declines one it does not know)', async () => {
    const { orderId, path } = await newLink();
    const page = await openLink(gw, path);
    const res = await payForm(gw, path, { csrf: page.csrf, payerVpa: 'meera@okaxis' }, { cookie: page.cookie });
    assert.equal(res.status, 303);
    for (let i = 0; i < 100 && (await statusOf(orderId)).txnStatus === '2'; i++) await new Promise((r) => setTimeout(r, 100));
    const order = await statusOf(orderId);
    assert.equal(order.txnStatus, '1', 'declined by the bank');
    assert.ok(gw.bank!.books.snapshot().totals, 'the simulator saw it');
  });
});
